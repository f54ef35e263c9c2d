import { randomInt } from 'node:crypto';
import {
  type ApproveDeviceCodeBody,
  DEVICE_TOKEN_PREFIX,
  type DeviceCodeLookupView,
  type DeviceCodeRequest,
  type DeviceCodeView,
  type DeviceTokenView,
  type DeviceView,
  formatUserCode,
  normalizeUserCode,
  USER_CODE_ALPHABET,
} from '@sundial/core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connection.js';
import type { User } from '../../db/tables.js';
import type { RequestAuth } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import type { TokenAuthenticator } from '../../platform/auth.js';
import { AppError, notFound } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import { rateLimiter } from '../../platform/rate-limits.js';
import { type DeviceRow, computerTimeRepository as repo } from './computer-time.repository.js';

/** How long a pairing code lives, and how often the agent may ask whether it was approved. */
export const DEVICE_CODE_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
/** A device's last request is written at most this often. */
export const LAST_SEEN_EVERY_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The paired computer that signed the request, when a device token did. */
    device?: DeviceRow;
  }
}

/** The four answers of a poll before the token, as RFC 8628 names them, in our error shape (400). */
const pending = {
  authorization_pending: 'The person has not approved this computer yet: ask again after the interval.',
  slow_down: `Too soon: wait at least ${POLL_INTERVAL_SECONDS} seconds between polls.`,
  expired_token: 'This pairing code is unknown, used or expired: start pairing again.',
  access_denied: 'The person refused to pair this computer.',
} as const;
const refusal = (code: keyof typeof pending) => new AppError(code, pending[code], { status: 400 });

const unknownCode = () => notFound('This code is unknown or has expired: start pairing again on the computer.');

function newUserCode(): string {
  let letters = '';
  for (let i = 0; i < 8; i += 1) letters += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return letters;
}

const deviceView = (row: DeviceRow & { workspace_name: string }): DeviceView => ({
  id: row.id,
  name: row.name,
  platform: row.platform,
  agentVersion: row.agent_version,
  workspace: { id: row.workspace_id, name: row.workspace_name },
  createdAt: row.created_at.toISOString(),
  lastSeenAt: row.last_seen_at?.toISOString() ?? null,
});

/**
 * Pairing a computer by device code (RFC 8628's flow in our error shape) and the device tokens it
 * ends with: the agent asks for codes, the signed-in person approves the user code in one of their
 * workspaces, the agent's next poll receives a token (once). A token acts as its person in that
 * workspace, on the agent's routes only, while the device is not revoked and they are an active member.
 */
export function createPairing(deps: {
  db: Db;
  publicUrl: string;
  /** Pairings one address may start an hour. */
  codesPerHour: number;
  now: () => Date;
}) {
  const { db, publicUrl, now: clock } = deps;

  const authenticator: TokenAuthenticator = {
    async authenticate(token, request) {
      if (!token.startsWith(DEVICE_TOKEN_PREFIX)) return null;
      const found = await repo.findLiveDevice(db, hashSecret(token));
      if (!found) return null;
      const now = clock();
      const seen = found.device.last_seen_at;
      if (!seen || now.getTime() - seen.getTime() >= LAST_SEEN_EVERY_MS) {
        await repo.touchDevice(db, found.device.id, now);
        found.device.last_seen_at = now;
      }
      request.device = found.device;
      return { user: found.user, method: 'token' } satisfies RequestAuth;
    },
  };

  return {
    authenticator,

    /** New codes for an agent (no sign-in): 429 past the hourly limit of its address. */
    async start(input: DeviceCodeRequest, ip: string): Promise<DeviceCodeView> {
      await rateLimiter.hit(db, {
        bucket: `agent-pairing:ip:${ip}`,
        limit: deps.codesPerHour,
        windowMs: 3_600_000,
        message: (wait) => `Too many pairings started from this address: try again in ${wait}.`,
      });
      const deviceCode = newSecret();
      const expiresAt = new Date(clock().getTime() + DEVICE_CODE_SECONDS * 1000);
      // 22^8 codes: a clash with a live code is rare, and then another is drawn.
      for (;;) {
        const userCode = newUserCode();
        const stored = await repo.insertCode(db, {
          id: newId(),
          deviceCodeHash: hashSecret(deviceCode),
          userCode,
          name: input.name,
          platform: input.platform,
          agentVersion: input.agentVersion,
          expiresAt,
        });
        if (!stored) continue;
        const verificationUri = `${publicUrl}/homepage/agent/pair`;
        return {
          deviceCode,
          userCode: formatUserCode(userCode),
          verificationUri,
          verificationUriComplete: `${verificationUri}?code=${formatUserCode(userCode)}`,
          expiresIn: DEVICE_CODE_SECONDS,
          interval: POLL_INTERVAL_SECONDS,
        };
      }
    },

    /**
     * The agent's poll: the token once the person approved (the code is then used up), else 400
     * authorization_pending, slow_down (polled within the interval), expired_token or access_denied.
     */
    async poll(deviceCode: string): Promise<DeviceTokenView> {
      const now = clock();
      type Answer = { refused: keyof typeof pending } | { view: DeviceTokenView };
      const answer = await db.transaction().execute(async (tx): Promise<Answer> => {
        const code = await repo.findCodeByHash(tx, hashSecret(deviceCode));
        if (!code || code.expires_at <= now) return { refused: 'expired_token' };
        if (code.denied_at) {
          await repo.deleteCode(tx, code.id);
          return { refused: 'access_denied' };
        }
        if (!code.approved_at || !code.user_id || !code.workspace_id) {
          const early =
            code.last_polled_at && now.getTime() - code.last_polled_at.getTime() < POLL_INTERVAL_SECONDS * 1000;
          await repo.markPolled(tx, code.id, now);
          return { refused: early ? 'slow_down' : 'authorization_pending' };
        }
        const token = `${DEVICE_TOKEN_PREFIX}${newSecret()}`;
        const deviceId = newId();
        await repo.insertDevice(tx, {
          id: deviceId,
          workspaceId: code.workspace_id,
          userId: code.user_id,
          name: code.name,
          platform: code.platform,
          agentVersion: code.agent_version,
          tokenHash: hashSecret(token),
        });
        await repo.deleteCode(tx, code.id);
        await audit(tx, {
          action: 'agent_device.paired',
          actorUserId: code.user_id,
          workspaceId: code.workspace_id,
          subjectId: deviceId,
          detail: { name: code.name, platform: code.platform, agentVersion: code.agent_version },
        });
        return { view: { token, deviceId, workspaceId: code.workspace_id, userId: code.user_id } };
      });
      // The poll's own mark is kept: a refusal is an answer, not a failure to roll back.
      if ('refused' in answer) throw refusal(answer.refused);
      return answer.view;
    },

    /** What the pairing page shows of an open code (404 when unknown, decided or expired). */
    async lookup(userCode: string): Promise<DeviceCodeLookupView> {
      const code = await repo.findOpenCode(db, normalizeUserCode(userCode) ?? '', clock());
      if (!code) throw unknownCode();
      return {
        userCode: formatUserCode(code.user_code),
        name: code.name,
        platform: code.platform,
        agentVersion: code.agent_version,
        expiresAt: code.expires_at.toISOString(),
      };
    },

    /** The signed-in person pairs the computer in a workspace of theirs (active member, else 404). */
    async approve(user: User, body: ApproveDeviceCodeBody): Promise<void> {
      await db.transaction().execute(async (tx) => {
        if (!(await repo.isActiveMember(tx, body.workspaceId, user.id))) throw notFound('Workspace not found.');
        const code = await repo.findOpenCode(tx, normalizeUserCode(body.userCode) ?? '', clock());
        if (!code) throw unknownCode();
        await repo.decideCode(tx, code.id, {
          userId: user.id,
          workspaceId: body.workspaceId,
          approvedAt: clock(),
          deniedAt: null,
        });
      });
    },

    /** The person refuses the code: the agent's next poll hears access_denied. */
    async deny(user: User, userCode: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        const code = await repo.findOpenCode(tx, normalizeUserCode(userCode) ?? '', clock());
        if (!code) throw unknownCode();
        await repo.decideCode(tx, code.id, { userId: user.id, workspaceId: null, approvedAt: null, deniedAt: clock() });
      });
    },

    async listDevices(user: User): Promise<DeviceView[]> {
      return (await repo.listDevices(db, user.id)).map(deviceView);
    },

    /** Revokes one of the person's own devices: its token stops at once (404 for anyone else's). */
    async revokeDevice(user: User, deviceId: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        const revoked = await repo.revokeDevice(tx, user.id, deviceId, clock());
        if (!revoked) throw notFound('Computer not found.');
        await audit(tx, {
          action: 'agent_device.revoked',
          actorUserId: user.id,
          workspaceId: revoked.workspace_id,
          subjectId: revoked.id,
          detail: { name: revoked.name },
        });
      });
    },

    /**
     * Admits a device's request: a device token opens the agent's own routes and nothing else
     * (403), and acts in its one workspace; a route of the agent's refuses anything but a device.
     */
    admit(request: FastifyRequest, route: { device?: boolean }): void {
      if (request.device && !route.device) {
        throw new AppError(
          'device_token_scope',
          'A computer’s device token opens the agent’s routes (/api/v1/agent/…) only: sign in to the app for the rest.',
          { status: 403 },
        );
      }
      if (!request.device && route.device) {
        throw new AppError('device_token_required', 'Only a paired computer (its device token) may call this route.', {
          status: 403,
        });
      }
    },
  };
}

export type Pairing = ReturnType<typeof createPairing>;
