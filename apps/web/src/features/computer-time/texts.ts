/** Every text of the Computer time pages, in one place. */
export const t = {
  emptyTitle: 'No computer activity here yet',
  emptyHint:
    'Computer time comes from the Sundial desktop app: install it on your computer and pair it with your account. The Dashboard has the download, the install command and the pairing steps.',
  toDashboard: 'Open the Dashboard',
  loading: 'Loading activity',
  timeline: {
    day: 'Day',
    previous: 'Previous day',
    next: 'Next day',
    today: 'Today',
    person: 'Person',
    lanes: 'Timeline',
    apps: 'Applications',
    away: 'Away',
    entries: 'Time entries',
    awayReason: { idle: 'Idle', locked: 'Screen locked', suspended: 'Suspended' },
    spans: (n: number) => `${n} spans`,
    hint: 'Click an application band, or drag across the Applications lane, to turn that time into a time entry.',
    noEntries: 'No time entries on this day.',
    hidden:
      'You see your own activity only: the workspace’s computer time settings do not let managers see their people’s activity.',
  },
  toEntry: {
    title: 'Turn into a time entry',
    range: 'Time',
    note: 'Note',
    project: 'Project',
    create: 'Create entry',
    cancel: 'Cancel',
    created: 'Time entry created.',
  },
  activities: {
    range: 'Date range',
    from: 'From',
    to: 'To',
    people: 'People',
    app: 'Application',
    category: 'Category',
    total: 'Total',
    table: 'Time per application and day',
    categoriesNote:
      'Categories come from Computer time › Categories, matched here on the application and, where the workspace keeps sites, the site (title rules sort the Timeline’s spans).',
    inApp: (app: string) => `in ${app}`,
    sortBy: (column: string) => `Sort by ${column}`,
  },
};
