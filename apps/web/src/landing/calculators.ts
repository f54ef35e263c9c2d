// The calculators of the public site: pure arithmetic in integer cents, shared by the prerendered
// page (first result) and the browser (live results).
import { formatMoney } from '@sundial/core';

export interface HourlyRateInput {
  targetIncome: number;
  yearlyCosts: number;
  billableHoursPerWeek: number;
  weeksPerYear: number;
}

/** The rate, in cents, that earns the income plus the costs over the billable hours of a year. */
export function hourlyRateCents(input: HourlyRateInput): number | null {
  const hours = input.billableHoursPerWeek * input.weeksPerYear;
  if (!(hours > 0) || input.targetIncome < 0 || input.yearlyCosts < 0) return null;
  return Math.round(((input.targetIncome + input.yearlyCosts) * 100) / hours);
}

export interface OvertimeInput {
  hourlyRate: number;
  hoursWorked: number;
  regularHours: number;
  multiplier: number;
}

export interface OvertimeResult {
  overtimeHours: number;
  regularPayCents: number;
  overtimePayCents: number;
  totalCents: number;
}

/** Pay for a week: hours up to the regular limit at the rate, hours beyond it at rate × multiplier. */
export function overtimePay(input: OvertimeInput): OvertimeResult | null {
  const { hourlyRate, hoursWorked, regularHours, multiplier } = input;
  if ([hourlyRate, hoursWorked, regularHours].some((n) => !(n >= 0)) || !(multiplier >= 1)) return null;
  const overtimeHours = Math.max(0, hoursWorked - regularHours);
  const regularPayCents = Math.round(hourlyRate * 100 * Math.min(hoursWorked, regularHours));
  const overtimePayCents = Math.round(hourlyRate * 100 * multiplier * overtimeHours);
  return { overtimeHours, regularPayCents, overtimePayCents, totalCents: regularPayCents + overtimePayCents };
}

export interface CalculatorField {
  name: string;
  label: string;
  hint?: string;
  value: number;
  step: string;
  min: number;
}

export interface Calculator {
  slug: string;
  title: string;
  description: string;
  fields: CalculatorField[];
  outputs: { name: string; label: string }[];
  /** Formatted results by output name, or undefined when the input cannot give one. */
  compute(values: Record<string, number>): Record<string, string> | undefined;
}

const hours = (n: number) => `${Number(n.toFixed(2))} h`;
const v = (values: Record<string, number>, name: string) => values[name] ?? Number.NaN;

export const CALCULATORS: Calculator[] = [
  {
    slug: 'hourly-rate',
    title: 'Hourly rate calculator',
    description:
      'Work out the hourly rate you need to charge to earn the income you want, once your costs and the hours you can really bill are counted.',
    fields: [
      { name: 'targetIncome', label: 'Income you want per year (USD)', value: 60000, step: '100', min: 0 },
      {
        name: 'yearlyCosts',
        label: 'Business costs per year (USD)',
        hint: 'Software, equipment, insurance, accounting, pension.',
        value: 8000,
        step: '100',
        min: 0,
      },
      {
        name: 'billableHoursPerWeek',
        label: 'Billable hours per week',
        hint: 'Hours you can charge to clients, not the hours you work.',
        value: 25,
        step: '0.5',
        min: 0,
      },
      {
        name: 'weeksPerYear',
        label: 'Working weeks per year',
        hint: 'Leave out holidays and sick days.',
        value: 46,
        step: '1',
        min: 0,
      },
    ],
    outputs: [
      { name: 'rate', label: 'Hourly rate to charge' },
      { name: 'billableHours', label: 'Billable hours per year' },
    ],
    compute(values) {
      const cents = hourlyRateCents({
        targetIncome: v(values, 'targetIncome'),
        yearlyCosts: v(values, 'yearlyCosts'),
        billableHoursPerWeek: v(values, 'billableHoursPerWeek'),
        weeksPerYear: v(values, 'weeksPerYear'),
      });
      if (cents === null) return undefined;
      return {
        rate: formatMoney(cents),
        billableHours: hours(v(values, 'billableHoursPerWeek') * v(values, 'weeksPerYear')),
      };
    },
  },
  {
    slug: 'overtime',
    title: 'Overtime calculator',
    description:
      'Work out a week’s pay with overtime: hours up to the regular limit at the normal rate, the rest at the overtime rate.',
    fields: [
      { name: 'hourlyRate', label: 'Hourly rate (USD)', value: 25, step: '0.01', min: 0 },
      { name: 'hoursWorked', label: 'Hours worked this week', value: 46, step: '0.25', min: 0 },
      {
        name: 'regularHours',
        label: 'Regular hours per week',
        hint: 'Often 40; check your contract and local law.',
        value: 40,
        step: '0.25',
        min: 0,
      },
      {
        name: 'multiplier',
        label: 'Overtime multiplier',
        hint: '1.5 means “time and a half”.',
        value: 1.5,
        step: '0.05',
        min: 1,
      },
    ],
    outputs: [
      { name: 'overtimeHours', label: 'Overtime hours' },
      { name: 'regularPay', label: 'Regular pay' },
      { name: 'overtimePay', label: 'Overtime pay' },
      { name: 'total', label: 'Total pay for the week' },
    ],
    compute(values) {
      const result = overtimePay({
        hourlyRate: v(values, 'hourlyRate'),
        hoursWorked: v(values, 'hoursWorked'),
        regularHours: v(values, 'regularHours'),
        multiplier: v(values, 'multiplier'),
      });
      if (!result) return undefined;
      return {
        overtimeHours: hours(result.overtimeHours),
        regularPay: formatMoney(result.regularPayCents),
        overtimePay: formatMoney(result.overtimePayCents),
        total: formatMoney(result.totalCents),
      };
    },
  },
];

/** The values a calculator starts with. */
export const defaultValues = (calculator: Calculator) =>
  Object.fromEntries(calculator.fields.map((field) => [field.name, field.value]));
