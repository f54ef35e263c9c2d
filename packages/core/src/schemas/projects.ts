import { z } from 'zod';
import { pagingFields } from './page.js';
import { text } from './text.js';

/** Names of projects, tasks, clients, tag lists and tags: required, trimmed, at most 255 characters. */
export const NAME_MAX = 255;
const nameOf = (what: string) =>
  text({
    min: 1,
    max: NAME_MAX,
    required: `${what} is required.`,
    tooLong: `${what} must be at most ${NAME_MAX} characters.`,
  });

export const projectNameSchema = nameOf('Project name');
export const taskNameSchema = nameOf('Task title');
export const clientNameSchema = nameOf('Client name');
export const tagListNameSchema = nameOf('Tag list name');
export const tagNameSchema = nameOf('Tag name');

/** The palette offered by Change Color; any #rrggbb is accepted. */
export const PROJECT_COLORS = [
  '#2f80ed',
  '#27ae60',
  '#eb5757',
  '#f2994a',
  '#9b51e0',
  '#56ccf2',
  '#f2c94c',
  '#219653',
  '#bb6bd9',
  '#828282',
  '#e91e63',
  '#00897b',
] as const;
export const colorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Colour must look like #2f80ed.');

export const BUDGET_TYPES = ['hours', 'fee'] as const;
export type BudgetType = (typeof BUDGET_TYPES)[number];
export const BUDGET_TYPE_LABELS: Record<BudgetType, string> = { hours: 'Estimated hours', fee: 'Estimated Fee' };

export const budgetAlertMessages = {
  notWhole: 'An alert threshold must be a whole percentage, like 80.',
  tooLow: 'An alert threshold must be at least 1 %.',
  tooHigh: 'An alert threshold must be at most 999 %.',
  tooMany: 'A budget can have at most 5 alert thresholds.',
  duplicate: 'Each alert threshold can be given only once.',
} as const;

/**
 * The percentages of a budget at which its managers are alerted (once per period each), stored
 * sorted; [] sends no alerts. The default is BUDGET_ALERT_PERCENTS (80 and 100).
 */
export const budgetAlertPercentsSchema = z
  .array(
    z
      .number({ error: budgetAlertMessages.notWhole })
      .int(budgetAlertMessages.notWhole)
      .min(1, budgetAlertMessages.tooLow)
      .max(999, budgetAlertMessages.tooHigh),
  )
  .max(5, budgetAlertMessages.tooMany)
  .refine((list) => new Set(list).size === list.length, budgetAlertMessages.duplicate)
  .transform((list) => [...list].sort((a, b) => a - b));

/** A budget: minutes for 'hours', cents for 'fee'. */
export const budgetSchema = z.object({
  type: z.enum(BUDGET_TYPES),
  amount: z
    .number()
    .int('Budget must be a whole number of minutes or cents.')
    .min(0, 'Budget cannot be negative.')
    .max(1e13),
  resetsMonthly: z.boolean().default(false),
  /** Left out: a new budget alerts at the default thresholds, an existing one keeps its own. */
  alertPercents: budgetAlertPercentsSchema.optional(),
});
export type Budget = z.infer<typeof budgetSchema>;

const keywordsSchema = z
  .array(
    text({
      min: 1,
      max: 100,
      required: 'A keyword cannot be empty.',
      tooLong: 'A keyword must be at most 100 characters.',
    }),
  )
  .max(50, 'At most 50 keywords.');

/** The sections shared by the project and task edit panels. */
const sections = {
  description: text({ trim: false, max: 20_000, tooLong: 'Description must be at most 20000 characters.' }).nullable(),
  budget: budgetSchema.nullable(),
  billableDefault: z.boolean(),
  keywordsEnabled: z.boolean(),
  keywords: keywordsSchema,
};

export const projectCreateBody = z.object({
  name: projectNameSchema,
  clientId: z.uuid().nullable().optional(),
  color: colorSchema.optional(),
  isPublic: z.boolean().optional(),
  ...z.object(sections).partial().shape,
});
export type ProjectCreateBody = z.input<typeof projectCreateBody>;

export const projectUpdateBody = projectCreateBody.partial();
export type ProjectUpdateBody = z.input<typeof projectUpdateBody>;

export const taskCreateBody = z.object({
  name: taskNameSchema,
  parentTaskId: z.uuid().nullable().optional(),
  ...z.object(sections).partial().shape,
});
export type TaskCreateBody = z.input<typeof taskCreateBody>;

/** Editing a task; projectId and parentTaskId move it (with its sub-tasks). */
export const taskUpdateBody = taskCreateBody.partial().extend({ projectId: z.uuid().optional() });
export type TaskUpdateBody = z.input<typeof taskUpdateBody>;

/** People assigned to a project or task: users and groups, replaced as a whole. */
export const membersBody = z.object({
  userIds: z.array(z.uuid()).max(1000),
  groupIds: z.array(z.uuid()).max(1000),
});
export type MembersBody = z.input<typeof membersBody>;

/**
 * A project's people: as membersBody, plus who of them holds the "Can manage" grant (ids out of
 * userIds / groupIds). Left out means no grants.
 */
export const projectPeopleBody = membersBody.extend({
  managerUserIds: z.array(z.uuid()).max(1000).optional(),
  managerGroupIds: z.array(z.uuid()).max(1000).optional(),
});
export type ProjectPeopleBody = z.input<typeof projectPeopleBody>;

export const currencySchema = text({ max: 3, tooLong: 'Currency must be a three-letter code such as USD.' })
  .regex(/^[A-Za-z]{3}$/, 'Currency must be a three-letter code such as USD.')
  .transform((s) => s.toUpperCase());

export const clientCreateBody = z.object({
  name: clientNameSchema,
  address: text({ max: 1000, tooLong: 'Address must be at most 1000 characters.' }).nullable().optional(),
  currency: currencySchema.nullable().optional(),
  note: text({ max: 5000, tooLong: 'Note must be at most 5000 characters.' }).nullable().optional(),
});
export type ClientCreateBody = z.input<typeof clientCreateBody>;
export const clientUpdateBody = clientCreateBody.partial();
export type ClientUpdateBody = z.input<typeof clientUpdateBody>;

export const tagListCreateBody = z.object({ name: tagListNameSchema });
export const tagListUpdateBody = z.object({ name: tagListNameSchema });
export const tagCreateBody = z.object({ name: tagNameSchema });
export const tagUpdateBody = z.object({ name: tagNameSchema.optional(), tagListId: z.uuid().optional() });
export const tagMergeBody = z.object({ intoTagId: z.uuid() });
export const tagSettingsBody = z.object({ tagsRequired: z.boolean() });

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Shared list query: paginated, sortable, searchable. */
export const listQuery = z.object({
  search: text({ max: 255 }).optional(),
  archived: z.enum(['false', 'true', 'all']).default('false'),
  sort: z.enum(['name', 'created']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  ...pagingFields,
});
export const projectListQuery = listQuery.extend({
  clientId: z.uuid().optional(),
  /** "My Task": only projects the caller is assigned to (directly, through a group, or on a task). */
  mine: booleanQuery.optional(),
});
/** The most projects one picker answer lists; past it the pickers search on the server. */
export const PICKER_PAGE = 300;
/** The most projects the pickers ask for by id at once (those the shown entries name). */
export const PICKER_MAX_IDS = 100;

/**
 * The time-entry pickers: the first PICKER_PAGE active projects by name, those whose name (or a
 * task's) holds `search`, or the projects of `ids` (comma-separated) that the caller may see.
 */
export const projectPickerQuery = z.object({
  search: text({ max: 255 }).optional(),
  ids: z
    .string()
    .optional()
    .transform((v) => (v ? [...new Set(v.split(',').map((id) => id.trim()))] : undefined))
    .pipe(
      z
        .array(z.uuid({ error: 'ids must be project ids separated by commas.' }))
        .max(PICKER_MAX_IDS, { error: `At most ${PICKER_MAX_IDS} ids at once.` })
        .optional(),
    ),
});
export type ProjectPickerQuery = z.input<typeof projectPickerQuery>;

export const taskListQuery = z.object({
  archived: z.enum(['false', 'true', 'all']).default('false'),
  mine: booleanQuery.optional(),
});

/** One CSV row for "Import From CSV". */
export const IMPORT_KINDS = ['client', 'project', 'task'] as const;
