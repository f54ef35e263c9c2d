import type { DeviceTokenView } from '@sundial/core';
import { expect } from 'vitest';
import { caller, joinWorkspace, type SignedUp, signUp, type TestApp } from './harness.js';

/** The people of Computer time's tests: a workspace's roles, a second member, and an outsider. */
export interface ActivityTeam {
  owner: SignedUp;
  admin: SignedUp;
  manager: SignedUp;
  member: SignedUp;
  other: SignedUp;
  outsider: SignedUp;
  /** The group Support (the manager and `member`). */
  supportGroupId: string;
}

/** A new workspace with its team; the manager manages a group with `member` in it (not `other`). */
export async function activityTeam(t: TestApp): Promise<ActivityTeam> {
  const owner = await signUp(t.app);
  const join = (role: 'admin' | 'manager' | 'member') => joinWorkspace(t, owner.workspaceId, role);
  const team: Omit<ActivityTeam, 'supportGroupId'> = {
    owner,
    admin: await join('admin'),
    manager: await join('manager'),
    member: await join('member'),
    other: await join('member'),
    outsider: await signUp(t.app),
  };
  const call = caller(t.app);
  const groups = `/api/v1/workspaces/${owner.workspaceId}/groups`;
  const group = await call('POST', groups, owner.cookie, { name: 'Support' });
  for (const who of [team.manager, team.member]) {
    const added = await call('PUT', `${groups}/${group.json().id}/members/${who.userId}`, owner.cookie);
    expect(added.statusCode, added.body).toBe(200);
  }
  return { ...team, supportGroupId: group.json().id };
}

/** A computer of `who` paired in `workspaceId` the way the agent does: its token and ids. */
export async function pairComputer(t: TestApp, who: SignedUp, workspaceId: string): Promise<DeviceTokenView> {
  const call = caller(t.app);
  const started = await call('POST', '/api/v1/agent/device-codes', undefined, {
    name: 'ann-laptop',
    platform: 'linux',
    agentVersion: '0.1.0',
  });
  expect(started.statusCode, started.body).toBe(200);
  const { userCode, deviceCode } = started.json();
  const approved = await call('POST', '/api/v1/agent/device-codes/approve', who.cookie, { userCode, workspaceId });
  expect(approved.statusCode, approved.body).toBe(204);
  const response = await call('POST', '/api/v1/agent/device-token', undefined, { deviceCode });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
