import { WEBHOOK_EVENT_TYPES } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../platform/audit.js';
import { isPublicAddress } from './webhooks.http.js';
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

describe('public addresses', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
