import {
  API_KEY_DEFAULT_DAYS,
  API_KEY_MAX_DAYS,
  type ApiKeyRole,
  type ApiKeyScopes,
  type ApiKeyView,
  type CreateApiKeyBody,
  type CreatedApiKeyView,
  type CreatedWorkspaceApiKeyView,
  type CreateWorkspaceApiKeyBody,
  createApiKeyBody,
  createWorkspaceApiKeyBody,
  type WorkspaceApiKeyView,
  waitText,
} from '@sundial/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import type { User } from '../../db/tables.js';
import { actingAs, assertCan } from '../../platform/access.js';
import { type Actor, clockFormatOf, type RequestAuth } from '../../platform/actor.js';
import { assertKeyScope } from '../../platform/api-key-scopes.js';
import { audit } from '../../platform/audit.js';
import type { TokenAuthenticator } from '../../platform/auth.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import { createRateMeter } from '../../platform/rate-meter.js';
import { keyExpiringMail } from './api-keys.mails.js';
import {
  type ApiKeyRow,
  LAST_USE_EVERY_MS,
  apiKeysRepository as repo,
  type WorkspaceKeyRow,
} from './api-keys.repository.js';

/** Keys start with this, so a leaked one is recognisable (secret scanners can look for it). */
export const API_KEY_PREFIX = 'sdl_';
/** How many characters of the token the list shows. */
const SHOWN_CHARS = API_KEY_PREFIX.length + 6;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The reminder goes out this long before the expiry. */
export const REMIND_BEFORE_MS = 7 * DAY_MS;

export const apiKeyRemindersJob = defineJob('api-keys.reminders', z.object({}));

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key that signed the request, when one did. */
    apiKey?: ApiKeyRow;
  }
}

const workspaceView = (row: WorkspaceKeyRow, now: Date): WorkspaceApiKeyView => ({
  ...view(row, now),
  actsAs: row.acts_as ?? 'member',
  createdBy: { id: row.creator_id, name: row.creator_name, email: row.creator_email },
});

function view(row: ApiKeyRow, now: Date): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    lastUsedIp: row.last_used_ip,
    expired: row.expires_at !== null && row.expires_at <= now,
  };
}

/**
 * Personal API keys (issue 34): a person makes named keys with areas of access and an expiry,
 * sees each once, and revokes them; a request with `Authorization: Bearer sdl_…` acts as that
 * person within the key's areas (api-key-scopes.ts), never beyond the person's own access.
 */
export function createApiKeysService(deps: {
  db: Db;
  mailer: Mailer;
  jobs: JobRunner;
  publicUrl: string;
  /** Requests a minute: per key, per key to reports and exports, per workspace across its keys. */
  limits: { perKey: number; reportsPerKey: number; perWorkspace: number };
  now?: () => Date;
  /** Where a failed flush of the shared request counts is told (it is retried at the next). */
  onMeterError?: (error: unknown) => void;
}) {
  const { db, mailer, jobs, publicUrl, limits } = deps;
  const clock = deps.now ?? (() => new Date());
  // Counted in memory and shared through the database every second: no write per request.
  const meter = createRateMeter(db, { windowMs: MINUTE_MS, onError: deps.onMeterError });

  /** The expiry asked for: none given is 12 months; it must lie ahead and within three years. */
  function expiryOf(expiresAt: string | null | undefined, now: Date): Date | null {
    if (expiresAt === null) return null;
    if (expiresAt === undefined) return new Date(now.getTime() + API_KEY_DEFAULT_DAYS * DAY_MS);
    const at = new Date(expiresAt);
    const problem =
      at <= now
        ? 'The expiry must lie in the future.'
        : at.getTime() > now.getTime() + API_KEY_MAX_DAYS * DAY_MS
          ? 'A key may live three years at most; choose an earlier expiry or none.'
          : undefined;
    if (problem) throw validationError({ expiresAt: problem });
    return at;
  }

  /** Makes a key (a person's, or with `workspace` a workspace's made by them) and records it; the token is for this answer only. */
  async function issue(
    user: User,
    body: { name: string; scopes: ApiKeyScopes; expiresAt?: string | null },
    workspace?: { id: string; actsAs: ApiKeyRole },
  ) {
    const now = clock();
    const token = `${API_KEY_PREFIX}${newSecret()}`;
    const row = await db.transaction().execute(async (tx) => {
      const created = await repo.insert(tx, {
        id: newId(),
        userId: user.id,
        name: body.name,
        tokenHash: hashSecret(token),
        prefix: token.slice(0, SHOWN_CHARS),
        scopes: body.scopes,
        expiresAt: expiryOf(body.expiresAt, now),
        ...(workspace ? { workspace } : {}),
      });
      await audit(tx, {
        action: 'api_key.created',
        actorUserId: user.id,
        workspaceId: workspace?.id ?? null,
        subjectId: created.id,
        detail: {
          name: created.name,
          scopes: created.scopes,
          ...(workspace ? { actsAs: workspace.actsAs } : {}),
          expiresAt: created.expires_at,
        },
      });
      return created;
    });
    return { row, token, now };
  }

  const authenticator: TokenAuthenticator = {
    async authenticate(token, request) {
      if (!token.startsWith(API_KEY_PREFIX)) return null;
      const now = clock();
      const found = await repo.findLive(db, hashSecret(token), now);
      if (!found) return null;
      request.apiKey = found.key;
      if (!found.key.last_used_at || now.getTime() - found.key.last_used_at.getTime() >= LAST_USE_EVERY_MS) {
        await repo.touch(db, found.key.id, now, request.ip);
      }
      return { user: found.user, method: 'token', apiKeyId: found.key.id } satisfies RequestAuth;
    },
  };

  return {
    authenticator,

    /**
     * Admits a key's request once its person and workspace are known: refuses what the key's areas
     * do not cover (403 key_scope), counts it against the key's limits and, in a workspace, the
     * workspace's, and tells the tightest of them in `RateLimit-*` headers (429 past it).
     */
    admit(request: FastifyRequest, reply: FastifyReply): void {
      const key = request.apiKey;
      if (!key) return;
      const need = assertKeyScope(key.scopes, request.method, request.routeOptions.url ?? '');
      if (key.workspace_id) {
        // A workspace's key reaches that workspace alone, with its role at most.
        if (!request.membership || request.membership.workspace.id !== key.workspace_id) {
          throw new AppError(
            'key_scope',
            `This is a workspace API key: it reaches /api/v1/workspaces/${key.workspace_id}/… only.`,
            { status: 403 },
          );
        }
        request.membership = actingAs(request.membership, key.acts_as ?? 'member');
      }
      const rules = [{ bucket: `api-key:${key.id}`, limit: limits.perKey }];
      if (need !== 'any' && need.area === 'reports') {
        rules.push({ bucket: `api-key-reports:${key.id}`, limit: limits.reportsPerKey });
      }
      const workspaceId = request.membership?.workspace.id;
      if (workspaceId) rules.push({ bucket: `api-keys-of:${workspaceId}`, limit: limits.perWorkspace });
      const reading = meter.hit(rules.map((rule) => rule.bucket));
      const tightest = rules
        .map((rule, i) => ({ limit: rule.limit, hits: reading.hits[i] ?? 0 }))
        .reduce((a, b) => (b.limit - b.hits < a.limit - a.hits ? b : a));
      reply.header('ratelimit-limit', tightest.limit);
      reply.header('ratelimit-remaining', Math.max(0, tightest.limit - tightest.hits));
      reply.header('ratelimit-reset', reading.resetSeconds);
      reply.header('ratelimit-policy', rules.map((rule) => `${rule.limit};w=60`).join(', '));
      if (tightest.hits > tightest.limit) {
        throw new AppError(
          'rate_limited',
          `Too many requests with this API key: try again in ${waitText(reading.resetSeconds)}.`,
          {
            status: 429,
            headers: { 'retry-after': String(reading.resetSeconds) },
          },
        );
      }
    },

    async list(user: User): Promise<ApiKeyView[]> {
      const now = clock();
      return (await repo.list(db, user.id)).map((row) => view(row, now));
    },

    /** A new key: its token is in this answer only; the table keeps its sha-256. */
    async create(user: User, input: CreateApiKeyBody): Promise<CreatedApiKeyView> {
      const body = createApiKeyBody.parse(input);
      const { row, token, now } = await issue(user, body);
      return { ...view(row, now), token };
    },

    async revoke(user: User, id: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        const name = await repo.revoke(tx, user.id, id, clock());
        if (name === undefined) throw notFound('API key not found.');
        await audit(tx, { action: 'api_key.revoked', actorUserId: user.id, subjectId: id, detail: { name } });
      });
    },

    /** The workspace's own keys (owners and admins). */
    async listOfWorkspace(actor: Actor): Promise<WorkspaceApiKeyView[]> {
      assertCan(actor, 'api_keys:manage');
      const now = clock();
      return (await repo.listOfWorkspace(db, actor.membership.workspace.id)).map((row) => workspaceView(row, now));
    },

    /**
     * A new key of the workspace (owners and admins make them, so its role, admin at most, is never
     * above its maker's; it stays within their access while they stay): its token is in this answer only.
     */
    async createForWorkspace(actor: Actor, input: CreateWorkspaceApiKeyBody): Promise<CreatedWorkspaceApiKeyView> {
      assertCan(actor, 'api_keys:manage');
      const body = createWorkspaceApiKeyBody.parse(input);
      const { user } = actor;
      const { row, token, now } = await issue(user, body, { id: actor.membership.workspace.id, actsAs: body.actsAs });
      const creator = { creator_id: user.id, creator_name: user.name, creator_email: user.email };
      return { ...workspaceView({ ...row, ...creator }, now), token };
    },

    /** Revokes one of the workspace's keys, whoever made it. */
    async revokeOfWorkspace(actor: Actor, id: string): Promise<void> {
      assertCan(actor, 'api_keys:manage');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const name = await repo.revokeOfWorkspace(tx, workspaceId, id, clock());
        if (name === undefined) throw notFound('API key not found.');
        await audit(tx, {
          action: 'api_key.revoked',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name },
        });
      });
    },

    /** E-mails the owner of each key that expires within 7 days, once per key. */
    async remind(now: Date): Promise<number> {
      const due = await repo.expiringUnreminded(db, new Date(now.getTime() + REMIND_BEFORE_MS), now);
      let sent = 0;
      for (const key of due) {
        const claimed = await db.transaction().execute(async (tx) => {
          if (!(await repo.claimReminder(tx, key.id, now))) return false;
          await mailer.send(
            {
              to: key.user.email,
              ...keyExpiringMail({
                name: key.name,
                prefix: key.prefix,
                expiresAt: key.expires_at,
                clock: clockFormatOf(key.user),
                keysUrl: `${publicUrl}/homepage/profile#api-keys`,
              }),
            },
            { db: tx },
          );
          return true;
        });
        if (claimed) sent += 1;
      }
      return sent;
    },

    /** Hands the last request counts over before the process ends. */
    close: () => meter.close(),

    registerJobs(): void {
      jobs.register(apiKeyRemindersJob, async (_payload, { now }) => {
        await this.remind(now);
      });
      jobs.schedule(apiKeyRemindersJob, '23 * * * *', {});
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
