import { z } from 'zod';
import { instantSchema, text } from './text.js';

/**
 * The areas of the API a key may be given (issue 34): each read, read and write, or not at all. A
 * key never goes past its owner's own access: its areas narrow what the person may do, never widen it.
 */
export const API_KEY_AREAS = ['time', 'projects', 'reports', 'team', 'billing'] as const;
export type ApiKeyArea = (typeof API_KEY_AREAS)[number];

/** What each area covers, as the key's form and the API documentation say it. */
export const API_KEY_AREA_TEXT: Record<ApiKeyArea, { label: string; covers: string }> = {
  time: { label: 'Time', covers: 'time entries, the timer, timesheets, approvals and notifications' },
  projects: { label: 'Projects', covers: 'projects, tasks, clients, tags, rates and imports' },
  reports: { label: 'Reports', covers: 'reports, exports, saved and scheduled reports, client invoices' },
  team: { label: 'Team', covers: 'workspaces, members, invites, groups and roles' },
  billing: { label: 'Billing', covers: 'the plan, seats, payment method and Sundial invoices' },
};

export const API_KEY_ACCESS = ['none', 'read', 'write'] as const;
export type ApiKeyAccess = (typeof API_KEY_ACCESS)[number];

const access = z.enum(API_KEY_ACCESS, { error: 'Choose none, read or write.' });

/** Each area's access; an area left out is `none`. */
export const apiKeyScopes = z
  .object({
    time: access.default('none'),
    projects: access.default('none'),
    reports: access.default('none'),
    team: access.default('none'),
    billing: access.default('none'),
  })
  .strict();
export type ApiKeyScopes = z.infer<typeof apiKeyScopes>;

/** How long a key lives unless told otherwise: twelve months. */
export const API_KEY_DEFAULT_DAYS = 365;
/** The longest expiry a key may be given; `null` (never) is allowed too. */
export const API_KEY_MAX_DAYS = 3 * 365;

const keyFields = {
  name: text({ min: 1, max: 100, required: 'Name the key (what it is for).' }),
  scopes: apiKeyScopes,
  /**
   * When the key stops working: a time within three years, or null for never. Left out: in 12
   * months. A reminder e-mail goes out 7 days before.
   */
  expiresAt: instantSchema.nullable().optional(),
};
const someArea = (body: { scopes: ApiKeyScopes }) => API_KEY_AREAS.some((area) => body.scopes[area] !== 'none');
const someAreaError = { message: 'Give the key access to at least one area.', path: ['scopes'] };

export const createApiKeyBody = z.object(keyFields).refine(someArea, someAreaError);
export type CreateApiKeyBody = z.input<typeof createApiKeyBody>;

/** A key as its owner sees it: never the token itself, only its first characters. */
export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's first characters (`sdl_AbCd`), to tell keys apart. */
  prefix: z.string(),
  scopes: apiKeyScopes,
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  /** Past its expiry (revoked keys are not listed). */
  expired: z.boolean(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

export const apiKeyListView = z.object({ items: z.array(apiKeyView) });

/** A new key: the token, shown this once. */
export const createdApiKeyView = apiKeyView.extend({ token: z.string() });
export type CreatedApiKeyView = z.infer<typeof createdApiKeyView>;

/** The roles a workspace key may act with: at most its maker's. */
export const API_KEY_ROLES = ['admin', 'manager', 'member'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

/** A workspace key: a key's fields and the role it acts with. */
export const createWorkspaceApiKeyBody = z
  .object({
    ...keyFields,
    actsAs: z.enum(API_KEY_ROLES, { error: 'A workspace key acts as an admin, a manager or a member.' }),
  })
  .refine(someArea, someAreaError);
export type CreateWorkspaceApiKeyBody = z.input<typeof createWorkspaceApiKeyBody>;

/** A workspace key as the workspace's owners and admins see it: its role and who made it. */
export const workspaceApiKeyView = apiKeyView.extend({
  actsAs: z.enum(API_KEY_ROLES),
  createdBy: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});
export type WorkspaceApiKeyView = z.infer<typeof workspaceApiKeyView>;
export const workspaceApiKeyListView = z.object({ items: z.array(workspaceApiKeyView) });
export const createdWorkspaceApiKeyView = workspaceApiKeyView.extend({ token: z.string() });
export type CreatedWorkspaceApiKeyView = z.infer<typeof createdWorkspaceApiKeyView>;
