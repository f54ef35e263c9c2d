/** The audit log page's words (issue 34). */
export const texts = {
  notAllowed: 'The audit log is for the workspace’s owners and administrators.',
  empty: {
    title: 'Nothing recorded yet',
    filtered: 'Nothing matches these filters. Widen the dates or clear a filter.',
    hint: 'Every change to the workspace, its people, projects, time, rates, invoices and settings is recorded here.',
  },
  verify: 'Verify the chain',
  intact: (n: number) => `The log is intact: ${n.toLocaleString()} sealed record${n === 1 ? '' : 's'} checked.`,
  system: 'Sundial',
  unsealed: 'Sealed within a minute',
};

/** The families of actions the filter offers: the prefix every action of the family starts with. */
export const ACTION_FAMILIES: { value: string; label: string }[] = [
  { value: 'time_entry.', label: 'Time entries' },
  { value: 'project.', label: 'Projects' },
  { value: 'task.', label: 'Tasks' },
  { value: 'client.', label: 'Clients' },
  { value: 'tag.', label: 'Tags' },
  { value: 'member.', label: 'Members' },
  { value: 'invite.', label: 'Invitations' },
  { value: 'group.', label: 'Groups' },
  { value: 'custom_role.', label: 'Custom roles' },
  { value: 'rate.', label: 'Rates' },
  { value: 'approval.', label: 'Approvals' },
  { value: 'client_invoice.', label: 'Client invoices' },
  { value: 'saved_report.', label: 'Saved reports' },
  { value: 'subscription.', label: 'Subscription' },
  { value: 'workspace.', label: 'Workspace settings' },
  { value: 'sso.', label: 'Single sign-on' },
  { value: 'scim.', label: 'SCIM provisioning' },
];

/** "project.people_updated" → "Project people updated". */
export function actionLabel(action: string): string {
  const words = action.replace('.', ' ').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A record's detail in a line: its plain values, "name: Harbour · count: 3". */
export function detailLine(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' · ');
}
