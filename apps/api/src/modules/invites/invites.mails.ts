import { ROLE_LABELS, type Role } from '@sundial/core';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The invitation e-mail: who invites, to which workspace, with which role, and the link. */
export function inviteMail(input: { inviter: string; workspaceName: string; role: Role; link: string; days: number }) {
  const role = ROLE_LABELS[input.role];
  return {
    subject: `${input.inviter} invited you to ${input.workspaceName} on Sundial`,
    text: [
      `${input.inviter} invited you to join the workspace "${input.workspaceName}" on Sundial as ${role}.`,
      '',
      `Accept the invitation here (the link works once, for ${input.days} days):`,
      input.link,
      '',
      'If you did not expect this invitation, ignore this e-mail.',
    ].join('\n'),
    html: `<p>${escapeHtml(input.inviter)} invited you to join the workspace <strong>${escapeHtml(input.workspaceName)}</strong> on Sundial as ${escapeHtml(role)}.</p>
<p><a href="${escapeHtml(input.link)}">Accept the invitation</a> (the link works once, for ${input.days} days).</p>
<p>If you did not expect this invitation, ignore this e-mail.</p>`,
  };
}
