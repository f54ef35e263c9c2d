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
};
