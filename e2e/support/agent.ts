import { type APIRequestContext, expect, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { dayKey, shiftDay } from '@sundial/core';
import { signUpOverHttp, workspaceApi, workspacePoster } from './users';

/** The desktop agent's side of Computer time's journeys: pairing a computer and uploading spans. */

export interface Span {
  id: string;
  kind: 'active' | 'away';
  startedAt: string;
  endedAt: string;
  app: string | null;
  title: string | null;
  url: string | null;
  awayReason: 'idle' | 'locked' | 'suspended' | null;
}

/** Pairs a computer for the signed-in person, as the agent does, and answers its device token. */
export async function pairComputer(page: Page, agent: APIRequestContext, workspaceId: string): Promise<string> {
  const started = await agent.post('/api/v1/agent/device-codes', {
    data: { name: 'work-laptop', platform: 'linux', agentVersion: '0.1.0' },
  });
  expect(started.status(), await started.text()).toBe(200);
  const codes = await started.json();
  const approved = await page.request.post('/api/v1/agent/device-codes/approve', {
    data: { userCode: codes.userCode, workspaceId },
  });
  expect(approved.status(), await approved.text()).toBe(204);
  await page.waitForTimeout(codes.interval * 1000);
  const issued = await agent.post('/api/v1/agent/device-token', { data: { deviceCode: codes.deviceCode } });
  expect(issued.status(), await issued.text()).toBe(200);
  return (await issued.json()).token;
}

export const span = (
  app: string | null,
  from: number,
  to: number,
  title: string | null,
  kind: Span['kind'] = 'active',
) => ({
  id: crypto.randomUUID(),
  kind,
  startedAt: new Date(from).toISOString(),
  endedAt: new Date(to).toISOString(),
  app,
  title,
  url: app === 'firefox' ? 'https://github.com/sundial/sundial' : null,
  awayReason: kind === 'away' ? ('idle' as const) : null,
});

export async function upload(device: APIRequestContext, spans: Span[]) {
  for (let i = 0; i < spans.length; i += 1000) {
    const answer = await device.post('/api/v1/agent/spans', { data: { spans: spans.slice(i, i + 1000) } });
    expect(answer.status(), await answer.text()).toBe(200);
  }
}

/** A new owner signed in over `page` with a project Harbour: their workspace, their zone, today and yesterday there. */
export async function ownerWithHarbour(page: Page) {
  await signUpOverHttp(page.request);
  const ws = await workspaceApi(page.request);
  const post = workspacePoster(page.request, ws);
  await post('/projects', { name: 'Harbour' });
  const me = await (await page.request.get('/api/v1/me')).json();
  const timeZone: string = me.user.timeZone;
  const today = dayKey(Date.now(), timeZone);
  return { ws, workspaceId: ws.split('/').pop() as string, post, me, timeZone, today, yesterday: shiftDay(today, -1) };
}

/**
 * A computer paired for the person signed in over `page`: the request context its agent uploads
 * with (its device token), and `dispose` for the end of the journey.
 */
export async function pairedDevice(
  page: Page,
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  workspaceId: string,
): Promise<{ device: APIRequestContext; dispose: () => Promise<void> }> {
  const agent = await playwright.request.newContext({ baseURL });
  const token = await pairComputer(page, agent, workspaceId);
  const device = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  return {
    device,
    dispose: async () => {
      await agent.dispose();
      await device.dispose();
    },
  };
}
