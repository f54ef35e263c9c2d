import { z } from 'zod';

/**
 * The contract between the desktop agent (`packages/agent`, the `sundial-agent` command) and the
 * API (issue 35, Computer time). The agent pairs by device code (the OAuth device flow, RFC 8628,
 * in our error shape), receives a revocable device token, reads its workspace's settings, and
 * uploads what the computer was doing as spans, never as samples.
 *
 * Routes (all under /api/v1):
 * - `POST /agent/device-codes` (no sign-in): {@link deviceCodeRequest} -> {@link deviceCodeView}.
 * - `POST /agent/device-token` (no sign-in): {@link deviceTokenRequest} -> {@link deviceTokenView},
 *   or 400 with `error.code` one of {@link DEVICE_TOKEN_PENDING_CODES} while the person has not
 *   approved yet (`authorization_pending`), when the agent asks faster than `interval`
 *   (`slow_down`), when the code is older than `expiresIn` (`expired_token`), or refused
 *   (`access_denied`).
 * - `POST /agent/device-codes/approve` (signed in, in the app): `{ userCode, workspaceId }`.
 * - `GET /agent/config` (device token): {@link agentConfigView}.
 * - `POST /agent/spans` (device token): {@link agentSpanBatch} -> {@link agentSpanBatchResult}.
 *
 * A device token is sent as `Authorization: Bearer sdd_…`; it acts as its person in its one
 * workspace and opens the agent routes only.
 */

export const AGENT_PLATFORMS = ['linux', 'darwin', 'win32'] as const;
export type AgentPlatform = (typeof AGENT_PLATFORMS)[number];

export const DEVICE_TOKEN_PENDING_CODES = [
  'authorization_pending',
  'slow_down',
  'expired_token',
  'access_denied',
] as const;

/** The prefix of every device token, so that a token found in a log says what it is. */
export const DEVICE_TOKEN_PREFIX = 'sdd_';

/** The most spans one upload may carry. */
export const AGENT_SPAN_BATCH_MAX = 1000;

export const deviceCodeRequest = z.object({
  /** The computer's name as its owner knows it (the host name). */
  name: z.string().trim().min(1).max(100),
  platform: z.enum(AGENT_PLATFORMS),
  agentVersion: z.string().trim().min(1).max(40),
});
export type DeviceCodeRequest = z.infer<typeof deviceCodeRequest>;

export const deviceCodeView = z.object({
  /** The agent's secret for polling; never shown to the person. */
  deviceCode: z.string(),
  /** What the person types or checks in the app: eight letters as `ABCD-EFGH`. */
  userCode: z.string(),
  /** The app page where the person approves, and the same with the code filled in. */
  verificationUri: z.string(),
  verificationUriComplete: z.string(),
  /** Seconds the codes live, and seconds the agent waits between polls. */
  expiresIn: z.number().int(),
  interval: z.number().int(),
});
export type DeviceCodeView = z.infer<typeof deviceCodeView>;

export const deviceTokenRequest = z.object({ deviceCode: z.string().min(1).max(200) });

export const deviceTokenView = z.object({
  token: z.string(),
  deviceId: z.string(),
  workspaceId: z.string(),
  userId: z.string(),
});
export type DeviceTokenView = z.infer<typeof deviceTokenView>;

/** How much the workspace keeps: applications only; plus window titles; plus sites. */
export const ACTIVITY_KEEP = ['apps', 'titles', 'sites'] as const;
export type ActivityKeep = (typeof ACTIVITY_KEEP)[number];

export const agentConfigView = z.object({
  workspaceId: z.string(),
  userId: z.string(),
  deviceId: z.string(),
  keep: z.enum(ACTIVITY_KEEP),
  /** No input for this long (or a locked screen) is away time, back-dated to the last input. */
  idleSeconds: z.number().int(),
  /** Applications or titles matching one of these are sent as "excluded" (case-insensitive). */
  exclusions: z.array(z.object({ field: z.enum(['app', 'title']), pattern: z.string() })),
  /** The server's clock, so the agent can tell when its own is far off. */
  serverTime: z.string(),
});
export type AgentConfigView = z.infer<typeof agentConfigView>;

/**
 * One span: a run of equal observations merged on the computer. `active` spans name what had the
 * focus; `away` spans are idle or locked time (back-dated to the last input). `id` is a UUID the
 * agent makes when the span is closed: an upload repeated after a failure sends the same ids, and
 * the server keeps each id once.
 */
export const agentSpan = z
  .object({
    id: z.uuid(),
    kind: z.enum(['active', 'away']),
    startedAt: z.iso.datetime({ offset: true }),
    endedAt: z.iso.datetime({ offset: true }),
    /** The application (its executable's or class name), or "excluded"; null for away spans. */
    app: z.string().max(200).nullable(),
    /** The window's title when the workspace keeps titles, else null. */
    title: z.string().max(1000).nullable(),
    /** For browsers, scheme, host and path (no query, no fragment) when the workspace keeps sites. */
    url: z.string().max(2000).nullable(),
    /** Why an away span began: no input, a locked screen, a suspended computer. */
    awayReason: z.enum(['idle', 'locked', 'suspended']).nullable(),
  })
  .refine((span) => Date.parse(span.endedAt) > Date.parse(span.startedAt), {
    message: 'A span ends after it starts.',
    path: ['endedAt'],
  });
export type AgentSpan = z.infer<typeof agentSpan>;

export const agentSpanBatch = z.object({ spans: z.array(agentSpan).min(1).max(AGENT_SPAN_BATCH_MAX) });
export type AgentSpanBatch = z.infer<typeof agentSpanBatch>;

export const agentSpanBatchResult = z.object({
  /** Spans stored by this upload, and spans already stored by an earlier one (same id). */
  accepted: z.number().int(),
  duplicates: z.number().int(),
});
export type AgentSpanBatchResult = z.infer<typeof agentSpanBatchResult>;

/**
 * The agent this server offers for download (`GET /agent/release`, no sign-in): the bundle built
 * from `packages/agent`, one file that Node runs. `available` is false when the server was started
 * without building it.
 */
export const agentReleaseView = z.object({
  available: z.boolean(),
  version: z.string().nullable(),
  fileName: z.string(),
  sizeBytes: z.number().int().nullable(),
  sha256: z.string().nullable(),
  /** The Node.js versions it runs on. */
  node: z.string(),
  /** Where to download it, relative to the server's address. */
  downloadPath: z.string(),
});
export type AgentReleaseView = z.infer<typeof agentReleaseView>;
