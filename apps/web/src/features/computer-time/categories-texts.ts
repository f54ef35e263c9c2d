import type { CategoryRuleField, Productivity } from '@sundial/core';

/** The Categories page's words (issue 35). */
export const ct = {
  title: 'Categories',
  intro:
    'Activity from the desktop app is sorted into these categories by their rules when it is read, so a change here applies to all of history at once. The deepest category with a matching rule wins; a site rule beats a title rule, which beats an application rule.',
  loading: 'Loading categories',
  empty: {
    title: 'No categories',
    hint: 'All activity shows as Uncategorized. Add a category with rules to sort it.',
  },
  add: 'Add category',
  addInside: 'Add a category inside',
  edit: 'Edit',
  delete: 'Delete',
  actions: (name: string) => `Actions for ${name}`,
  name: 'Name',
  parent: 'Inside',
  top: 'At the top',
  productivity: 'Productivity',
  asParent: 'As the category it is in',
  levels: { productive: 'Productive', neutral: 'Neutral', unproductive: 'Unproductive' } satisfies Record<
    Productivity,
    string
  >,
  rules: 'Rules',
  noRules: 'No rules',
  ruleCount: (n: number) => (n === 1 ? '1 rule' : `${n} rules`),
  fields: { app: 'Application', title: 'Window title', site: 'Site' } satisfies Record<CategoryRuleField, string>,
  fieldsMany: { app: 'Applications', title: 'Titles', site: 'Sites' } satisfies Record<CategoryRuleField, string>,
  pattern: 'Contains',
  patternHint: 'Letters the name contains, any case; * for anything in between. A site: its host, like github.com.',
  addRule: 'Add a rule',
  removeRule: (n: number) => `Remove rule ${n}`,
  save: 'Save',
  cancel: 'Cancel',
  created: (name: string) => `Category “${name}” added.`,
  saved: (name: string) => `Category “${name}” saved.`,
  deleted: (name: string) => `Category “${name}” deleted.`,
  deleteTitle: (name: string) => `Delete “${name}”?`,
  deleteText: (inside: number) =>
    inside > 0
      ? `The ${inside === 1 ? 'category' : `${inside} categories`} inside it go too. Their activity falls to the category above, or Uncategorized.`
      : 'Its activity falls to the category above, or Uncategorized.',
  readOnly: 'Owners and admins change the categories.',
  tryTitle: 'Try the rules',
  tryHint: 'What would this window count as?',
  tryApp: 'Application',
  tryWindow: 'Window title',
  tryUrl: 'Address',
  uncategorized: 'Uncategorized',
  result: 'Counts as',
  settings: {
    title: 'What the desktop app keeps',
    keep: 'Keep',
    keeps: { apps: 'Applications', titles: 'Applications and titles', sites: 'Applications, titles and sites' },
    keepHint:
      'Titles and sites never leave a computer unless they are kept here; sites are kept without their query or fragment.',
    idle: 'Away after (minutes)',
    idleHint: 'No mouse or keyboard this long, or a locked screen, is away time from the last input.',
    retention: 'Keep activity',
    retentionHint: 'Older activity is deleted every night.',
    retentions: (days: number | null) =>
      days === null
        ? 'Forever'
        : days % 365 === 0
          ? `${days / 365} ${days === 365 ? 'year' : 'years'}`
          : `${days} days`,
    managers: 'Managers see their people’s activity',
    managersHint:
      'Off: each person sees only their own. Owners and admins count as managers of everyone. A group may choose otherwise below.',
    exclusions: 'Never recorded',
    exclusionsHint:
      'An application or title matching one of these is sent as “excluded”, with no title or site: it never leaves the computer.',
    exclusion: (n: number) => `Exclusion ${n}`,
    removeExclusion: (n: number) => `Remove exclusion ${n}`,
    addExclusion: 'Add an exclusion',
    save: 'Save settings',
    saved: 'Computer time settings saved.',
  },
  groups: {
    title: 'Groups with settings of their own',
    hint: 'A group’s choice replaces the workspace’s for its people and the groups inside it. Someone in several groups gets the most private of their choices.',
    none: 'No group has settings of its own: every person has the workspace’s.',
    noGroups: 'Make groups on the Users page to give some people other settings.',
    group: 'Group',
    keep: 'Keep',
    managers: 'Managers see',
    asWorkspace: 'As the workspace',
    yes: 'Yes',
    no: 'No',
    add: 'Add a group',
    addLabel: 'Group to give its own settings',
    pending: 'Choose something to save it.',
    remove: (name: string) => `Give ${name} the workspace’s settings`,
    saved: 'Saved',
  },
};
