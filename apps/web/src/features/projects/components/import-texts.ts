import {
  IMPORT_SOURCE_LABELS,
  type ImportSource,
  type ImportSummaryView,
  type ImportView,
  PROJECT_TOOL_SOURCES,
  TIME_TRACKER_SOURCES,
} from '@sundial/core';

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;

/** Every text of Import From CSV and Import From add-ons. */
export const importTexts = {
  count,
  plural,
  labels: IMPORT_SOURCE_LABELS,
  groups: [
    { label: 'Time trackers', sources: TIME_TRACKER_SOURCES },
    { label: 'Project tools: projects, tasks and who they are assigned to', sources: PROJECT_TOOL_SOURCES },
  ],
  help: {
    csv: 'A CSV file with the columns Client, Project, Task and, optionally, Parent Task. Sub-tasks can also be written as “Design > Logo” in the Task column. Existing clients, projects and tasks with the same names are reused.',
    toggl:
      'In Toggl Track open Reports → Detailed, choose the period and export it as CSV. Projects, clients, tasks, tags and time entries come across; entries of people who are members here are theirs, the others become yours.',
    clockify:
      'In Clockify open Reports → Detailed, choose the period and Export → Save as CSV. Projects, clients, tasks, tags and time entries come across.',
    harvest:
      'In Harvest open Reports → Detailed time, choose the period and Export → CSV. Harvest keeps hours per day without a start time, so those entries start at 09:00 in your time zone.',
    jira: 'In Jira search the issues (Filters → View all issues), then Export → Export CSV (all fields). Each Jira project becomes a project and its issues tasks, sub-tasks under their parents.',
    asana:
      'In Asana open the project, click the arrow beside its name and choose Export/Print → CSV. Sub-tasks come under their parent task.',
    trello:
      'In Trello open the board menu → Print, export and share → Export as JSON. The board becomes a project, its open cards tasks and their checklist items sub-tasks.',
    clickup:
      'In ClickUp open the List (or Folder or Space) menu → Export, choose CSV and all columns. Each List becomes a project; sub-tasks come under their parents.',
    monday:
      'In monday.com open the board menu (⋯) → Export board to Excel. The board becomes a project, its items tasks and their sub-items sub-tasks.',
    todoist:
      'In Todoist open the project menu (⋯) → Export as a template → Download as file (CSV). The project takes the file’s name; indented tasks become sub-tasks.',
  } satisfies Record<ImportSource, string>,
  file: (source: ImportSource) =>
    source === 'trello'
      ? { label: 'JSON file', placeholder: 'Choose a .json file', accept: '.json,application/json' }
      : source === 'monday'
        ? { label: 'Excel file', placeholder: 'Choose a .xlsx file', accept: '.xlsx' }
        : { label: 'CSV file', placeholder: 'Choose a .csv file', accept: '.csv,text/csv' },
  tooLarge: 'The file is larger than 100 MB; split it.',
  /** What an import creates; a project tool's creates no clients, tags or time. */
  describe: (s: ImportSummaryView, projectTool: boolean) =>
    (projectTool
      ? [plural(s.projects, 'project'), plural(s.tasks, 'task')]
      : [
          plural(s.clients, 'client'),
          plural(s.projects, 'project'),
          plural(s.tasks, 'task'),
          plural(s.tags, 'tag'),
          plural(s.timeEntries, 'time entry').replace('entrys', 'entries'),
        ]
    ).join(', '),
  assigned: (a: ImportView['assignees']) => ` ${plural(a.assigned, 'task assignment')} by e-mail.`,
  mapping: {
    title: 'People who are not members here',
    hint: 'No member has these e-mails or names. Choose who takes over their tasks, or leave those tasks unassigned.',
    tasks: (n: number) => plural(n, 'task'),
    choose: 'Choose…',
    unassigned: 'Leave unassigned',
    pending: 'Choose a member or “Leave unassigned” for each person to import.',
  },
  assignee: 'Assigned to',
};
