import { formatDuration } from '@sundial/core';

/** The timesheet showing a person's period: the bell's link and, after the public address, the e-mail's. */
export const periodLink = (start: string, userId?: string) =>
  `/homepage/timesheet?${new URLSearchParams({ day: start, ...(userId ? { user: userId } : {}) })}`;

interface Period {
  workspaceName: string;
  /** The public address of the app, for the e-mail's links. */
  publicUrl: string;
  start: string;
  end: string;
}

/** The words for an approver: a person submitted a period; its link shows that person's week. */
export function submittedMessage(p: Period & { name: string; userId: string; trackedSeconds: number }) {
  const title = `${p.name} submitted ${p.start} – ${p.end} for approval`;
  const body = `${formatDuration(p.trackedSeconds)} tracked. Approve or reject it on the Approvals page.`;
  const link = periodLink(p.start, p.userId);
  return {
    title,
    body,
    link,
    mail: {
      subject: `${title} (${p.workspaceName})`,
      text: [
        `${title}: ${formatDuration(p.trackedSeconds)} tracked.`,
        '',
        `See the time: ${p.publicUrl}${link}`,
        `Approve or reject it: ${p.publicUrl}/homepage/approvals`,
      ].join('\n'),
    },
  };
}

/** The words for the person whose period an approver decided; a rejection carries its comment. */
export function decidedMessage(p: Period & { decision: 'approved' | 'rejected'; by: string; comment: string }) {
  const title = `Your time from ${p.start} to ${p.end} was ${p.decision}`;
  const said = p.comment ? `: “${p.comment}”` : '.';
  const body =
    p.decision === 'rejected' ? `${p.by} rejected it${said} Fix it and submit it again.` : `${p.by} approved it${said}`;
  const link = periodLink(p.start);
  return {
    title,
    body,
    link,
    mail: {
      subject: `${title} (${p.workspaceName})`,
      text: [body, '', `See your week: ${p.publicUrl}${link}`].join('\n'),
    },
  };
}
