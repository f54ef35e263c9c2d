import { type BudgetType, formatDuration } from '@sundial/core';

/** How much of the budget is used, in its own unit. */
const amount = (type: BudgetType, value: number) =>
  type === 'hours' ? `${formatDuration(value, 'h:mm')} h` : `${(value / 100).toFixed(2)}`;

/** The words of a budget alert, for the e-mail and the in-app notification alike. */
export function budgetAlertMessage(input: {
  workspaceName: string;
  what: string;
  threshold: number;
  type: BudgetType;
  used: number;
  budget: number;
  period: string;
  link: string;
}) {
  const reached =
    input.threshold === 100 ? 'has used all of its budget' : `has reached ${input.threshold}% of its budget`;
  const period = input.period === 'total' ? '' : ` this month (${input.period})`;
  const title = `${input.what} ${reached}`;
  const body = `${input.what} used ${amount(input.type, input.used)} of ${amount(input.type, input.budget)}${period}.`;
  return {
    title,
    body,
    mail: {
      subject: `${title} (${input.workspaceName})`,
      text: [body, '', `See the project in Sundial: ${input.link}`].join('\n'),
    },
  };
}
