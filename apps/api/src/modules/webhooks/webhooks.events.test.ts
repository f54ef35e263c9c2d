import { WEBHOOK_EVENT_TYPES } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../platform/audit.js';
import { DELIVERY_ATTEMPTS, RETRY } from './webhooks.service.js';

/** The families whose audit actions are offered as webhook events, and the one single action. */
const OFFERED =
  /^(time_entry|project|task|client|tag|tag_list|member|group|approval|client_invoice|subscription)\.|^invite\.accepted$/;

describe('webhook events', () => {
  it('offers exactly the audit actions of the offered families', () => {
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual(AUDIT_ACTIONS.filter((action) => OFFERED.test(action)).sort());
  });

  it('never offers webhooks’ own changes, sign-ins or settings', () => {
    for (const type of WEBHOOK_EVENT_TYPES) expect(type).not.toMatch(/^(webhook|user|api_key|sso|scim)\./);
  });

  it('retries for about 24 hours', () => {
    expect(RETRY).toEqual({ backoffMs: 10_000, maxBackoffMs: 3_600_000, forMs: 86_400_000 });
    expect(DELIVERY_ATTEMPTS).toBe(32);
  });
});
