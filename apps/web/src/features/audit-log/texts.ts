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
  viaKey: (name: string | null) => (name ? `via API key “${name}”` : 'via an API key since deleted'),
  pruned: (n: number) =>
    `Records 1–${n.toLocaleString()} were removed by the retention setting; the chain is checked from there.`,
  retention: 'Keep records',
  retentionHint: 'Older records are removed each night from the start of the chain; what is kept still verifies.',
};

/** The retention choices, in days ('' keeps records forever). */
export const RETENTION_OPTIONS: { value: string; label: string }[] = [
  { value: '', label: 'Forever' },
  { value: '90', label: '90 days' },
  { value: '180', label: '180 days' },
  { value: '365', label: '1 year' },
  { value: '730', label: '2 years' },
  { value: '1095', label: '3 years' },
  { value: '2555', label: '7 years' },
];

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

const shown = (value: unknown): string =>
  value === null || value === undefined || value === ''
    ? '(none)'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

const isChange = (value: unknown): value is { from: unknown; to: unknown } =>
  typeof value === 'object' && value !== null && 'from' in value && 'to' in value && Object.keys(value).length === 2;

/** "client_id" → "client", "is_public" → "public", "retentionDays" → "retention days". */
const fieldLabel = (field: string) =>
  field
    .replace(/_id$/, '')
    .replace(/^is_/, '')
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`);

/**
 * A record's detail as lines: its plain values ("name: Harbour · count: 3"), then each changed
 * field before and after ("color: #1e88e5 → #2e7d32"), whether kept under `changes` or alone.
 */
export function detailLines(detail: Record<string, unknown>): string[] {
  const plain: string[] = [];
  const changes: string[] = [];
  for (const [key, value] of Object.entries(detail)) {
    if (value === null || value === undefined || value === '') continue;
    if (key === 'changes' && typeof value === 'object' && !Array.isArray(value)) {
      for (const [field, change] of Object.entries(value as Record<string, unknown>)) {
        if (isChange(change)) changes.push(`${fieldLabel(field)}: ${shown(change.from)} → ${shown(change.to)}`);
      }
    } else if (isChange(value)) {
      changes.push(`${fieldLabel(key)}: ${shown(value.from)} → ${shown(value.to)}`);
    } else {
      plain.push(`${key}: ${shown(value)}`);
    }
  }
  return [...(plain.length ? [plain.join(' · ')] : []), ...changes];
}
