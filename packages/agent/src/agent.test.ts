import { type ChildProcess, execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AgentConfigView, AgentSpan } from '@sundial/core/activity';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countQueued, SpanQueue } from './queue.js';
import { type Pairing, readPairing, writePairing } from './settings.js';
import { type ApiServer, freePort, startApiServer } from './test/api-server.js';
import { makeSpans } from './test/fixtures.js';
import { startReceiver } from './test/receiver.js';
import { hasXTools, startXvfb, type VirtualDisplay } from './test/xvfb.js';

/**
 * The packaged agent (dist/sundial-agent.mjs, built here) run as a process on a real X server,
 * against the built API (apps/api/dist/main.mjs, test/api-server.ts) on PGlite: paired by device
 * code as a person approves it over HTTP, and checked by reading back what the server stored. Only
 * the away-time test uses the stand-in receiver (test/receiver.ts): the server refuses an away
 * threshold under 60 s (its schema and a database check), and a minute of idling per run is too long.
 */
const run = hasXTools() || Boolean(process.env.CI);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const POLL_MS = 200;
const HOUR = 3_600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, check: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}

type StoredSpan = AgentSpan & { deviceId: string };
type RunningAgent = ChildProcess & { output: () => string };
const shape = (span: AgentSpan) => (span.kind === 'away' ? `away:${span.awayReason}` : `${span.app}: ${span.title}`);
const byStart = (a: AgentSpan, b: AgentSpan) => Date.parse(a.startedAt) - Date.parse(b.startedAt);

describe.runIf(run)('sundial-agent, on a real X server, against the API', () => {
  let screen: VirtualDisplay;
  let bundle: string;
  let work: string;
  let server: ApiServer;
  /** The computer paired once for the file (by the `pair` command, approved over HTTP). */
  let paired: Pairing;
  const windows: Record<string, string> = {};
  const agents: ChildProcess[] = [];

  const exited = (proc: ChildProcess) =>
    new Promise<number | null>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) resolve(proc.exitCode);
      else proc.once('exit', (code) => resolve(code));
    });

  /** Runs `sundial-agent pair` as a process and approves its code as the person, in their workspace. */
  async function pair(configFile: string): Promise<{ output: string; pairing: Pairing }> {
    const proc = spawn(process.execPath, [bundle, 'pair', '--server', `${server.url}/`, '--config', configFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    proc.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    proc.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const [, userCode] = await until('a code', () => output.match(/the code ([A-Z0-9]{4}-[A-Z0-9]{4})/));
    const approved = await server.call('POST', '/api/v1/agent/device-codes/approve', {
      userCode,
      workspaceId: server.person.workspaceId,
    });
    expect(approved.status).toBe(204);
    expect(await exited(proc)).toBe(0);
    const pairing = readPairing(configFile);
    if (!pairing) throw new Error(`No pairing in ${configFile}: ${output}`);
    return { output, pairing };
  }

  /** What the server stored for the person from `from` to `to`, read back through the spans route. */
  async function storedSpans(from: number, to = Date.now() + HOUR): Promise<StoredSpan[]> {
    const query = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    const answer = await server.call<{ items: StoredSpan[] }>(
      'GET',
      `/api/v1/workspaces/${server.person.workspaceId}/computer-time/spans?${query}`,
    );
    expect(answer.status).toBe(200);
    return answer.body.items;
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-agent-'));
    bundle = path.join(work, 'sundial-agent.mjs');
    const built = promisify(execFile)(process.execPath, [path.join(root, 'scripts/build-agent.mjs'), bundle], {
      cwd: root,
    });
    [server, screen] = await Promise.all([startApiServer(), startXvfb(), built]);
    const opened = (async () => {
      windows.logo = await screen.open('xlogo', ['-title', 'Logo window'], 'Logo window');
      windows.clock = await screen.open('xclock', ['-title', 'Clock window'], 'Clock window');
      windows.message = await screen.open('xmessage', ['-title', 'Message window', 'hello'], 'Message window');
    })();
    // Pairing waits the server's polling interval (5 s): meanwhile the windows open.
    [{ pairing: paired }] = await Promise.all([pair(path.join(work, 'paired.json')), opened]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([screen?.stop(), server?.stop()]);
    fs.rmSync(work, { recursive: true, force: true });
  });

  let stateDir: string;
  let configFile: string;
  beforeEach(() => {
    stateDir = fs.mkdtempSync(path.join(work, 'state-'));
    configFile = path.join(stateDir, 'config.json');
    writePairing(configFile, paired);
  });
  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.kill('SIGKILL');
  });

  function startAgent(): RunningAgent {
    const args = [bundle, 'run', '--state-dir', stateDir, '--config', configFile, '--poll-ms', String(POLL_MS)];
    const agent = spawn(process.execPath, [...args, '--upload-every', '1'], { env: screen.env, stdio: 'pipe' });
    let output = '';
    agent.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    agent.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    agents.push(agent);
    return Object.assign(agent, { output: () => output });
  }

  /** Moves the pointer every 100 ms for `ms`: a person working in the focused window. */
  async function useFor(ms: number): Promise<number> {
    const end = Date.now() + ms;
    let last = Date.now();
    for (let i = 0; Date.now() < end; i++) {
      screen.x('xdotool', 'mousemove', String(100 + (i % 50)), '100');
      last = Date.now();
      await sleep(100);
    }
    return last;
  }
  const focus = (id: string | undefined) => {
    screen.x('xdotool', 'windowfocus', '--sync', id as string);
    return Date.now();
  };
  const at = (iso: string) => Date.parse(iso);
  // Each boundary lies within a poll of the moment the focus moved. A poll is stamped when it starts
  // and its X queries take a while (hundreds of ms on a loaded machine), so one that began just
  // before the move may see it: hence the slack on both sides.
  const near = (boundary: string, moment: number) => {
    expect(at(boundary) - moment).toBeGreaterThanOrEqual(-POLL_MS - 300);
    expect(at(boundary) - moment).toBeLessThanOrEqual(POLL_MS + 700);
  };
  const contiguous = (spans: AgentSpan[]) => {
    for (let i = 1; i < spans.length; i++) expect(spans[i]?.startedAt).toBe(spans[i - 1]?.endedAt);
  };

  it('records focused windows as spans under the workspace rules, and the server stores them', async () => {
    const settings = await server.call(
      'PUT',
      `/api/v1/workspaces/${server.person.workspaceId}/computer-time/settings`,
      {
        keep: 'titles',
        idleSeconds: 180,
        retentionDays: null,
        managersSeeActivity: false,
        exclusions: [{ field: 'app', pattern: 'XMESS*' }],
      },
    );
    expect(settings.status).toBe(200);
    focus(windows.logo);
    screen.x('xdotool', 'mousemove', '10', '10');
    const agent = startAgent();
    await until('tracking', () => agent.output().includes('tracking'));
    const started = Date.now();
    await useFor(1000);
    const toClock = focus(windows.clock);
    await useFor(1000);
    const toMessage = focus(windows.message);
    await useFor(800);
    const toLogo = focus(windows.logo);
    await useFor(600);
    agent.kill('SIGTERM');
    expect(await exited(agent)).toBe(0);

    // Everything reached the server (the last span in the agent's final upload on SIGTERM).
    expect(countQueued(stateDir)).toBe(0);
    const spans = (await storedSpans(started - HOUR)).sort(byStart);
    expect(spans.map(shape)).toEqual([
      'XLogo: Logo window',
      'XClock: Clock window',
      'excluded: null', // the exclusion rule applied on the computer: neither name nor title left it
      'XLogo: Logo window',
    ]);
    expect(new Set(spans.map((span) => span.deviceId))).toEqual(new Set([paired.deviceId]));
    const [logo, clock, message] = spans as [StoredSpan, StoredSpan, StoredSpan];
    expect(at(logo.startedAt)).toBeLessThanOrEqual(started);
    near(logo.endedAt, toClock);
    near(clock.endedAt, toMessage);
    near(message.endedAt, toLogo);
    contiguous(spans);
    // What was sent is what the person can list.
    const listed = execFileSync(process.execPath, [bundle, 'uploaded', '--state-dir', stateDir], {
      encoding: 'utf8',
      env: screen.env,
    });
    expect(listed.split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('back-dates away time to the last input (against the stand-in receiver: the server’s threshold is 60 s at least)', async () => {
    const receiver = await startReceiver({ idleSeconds: 2, keep: 'titles' });
    try {
      writePairing(configFile, { ...paired, server: receiver.url, token: receiver.token });
      focus(windows.logo);
      const agent = startAgent();
      await until('tracking', () => agent.output().includes('tracking'));
      const lastInput = await useFor(800);
      await sleep(3000); // no input: past the 2 s threshold
      // Focus is not input: the agent still sees away time until the pointer moves.
      focus(windows.clock);
      const back = Date.now();
      screen.x('xdotool', 'mousemove', '300', '300');
      await useFor(600);
      agent.kill('SIGTERM');
      expect(await exited(agent)).toBe(0);
      const spans = [...receiver.stored.values()].sort(byStart);
      expect(spans.map(shape)).toEqual(['XLogo: Logo window', 'away:idle', 'XClock: Clock window']);
      const [logo, away] = spans as [AgentSpan, AgentSpan];
      // Away starts at the last input (X's own idle clock), and the active span is cut there.
      expect(Math.abs(at(away.startedAt) - lastInput)).toBeLessThanOrEqual(250);
      expect(logo.endedAt).toBe(away.startedAt);
      near(away.endedAt, back);
      contiguous(spans);
    } finally {
      await receiver.close();
    }
  });

  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [bundle, ...args, '--state-dir', stateDir, '--config', configFile], {
      encoding: 'utf8',
      env: screen.env,
    });

  it('stops recording while paused, from another command, and records again on resume', async () => {
    focus(windows.clock);
    const agent = startAgent();
    await until('tracking', () => agent.output().includes('tracking'));
    const started = Date.now();
    await useFor(600);
    expect(cli('pause')).toBe('Paused until "sundial-agent resume".\n');
    await until('paused', () => agent.output().includes('paused'));
    expect(cli('status')).toContain('paused, until "sundial-agent resume"');
    const pausedAt = Date.now();
    await useFor(1000);
    const resumedAt = Date.now();
    cli('resume');
    await until('tracking again', () => agent.output().split('tracking').length > 2);
    await useFor(600);
    agent.kill('SIGTERM');
    expect(await exited(agent)).toBe(0);
    const spans = (await storedSpans(started)).filter((span) => at(span.startedAt) >= started - POLL_MS - 300);
    expect(spans.map((span) => span.app)).toEqual(['XClock', 'XClock']);
    // Nothing was recorded between the pause and the resume (give or take a poll).
    expect(at(spans[0]?.endedAt ?? '')).toBeLessThanOrEqual(pausedAt + POLL_MS);
    expect(at(spans[1]?.startedAt ?? '')).toBeGreaterThanOrEqual(resumedAt - POLL_MS);
  });

  it('records nothing before it has had the workspace settings once', async () => {
    writePairing(configFile, { ...paired, server: `http://127.0.0.1:${await freePort()}` }); // nothing listens
    focus(windows.clock);
    const agent = startAgent();
    await until('waiting', () => agent.output().includes('waiting'));
    await useFor(600);
    agent.kill('SIGTERM');
    expect(await exited(agent)).toBe(0);
    expect(countQueued(stateDir)).toBe(0);
  });

  it('pairs by device code, keeps the token in a file only its owner reads, and when revoked keeps recording into its queue', async () => {
    const fresh = path.join(stateDir, 'fresh', 'config.json');
    const { output, pairing } = await pair(fresh);
    expect(output).toMatch(new RegExp(`${server.url}/\\S+`));
    expect(output).toContain('Paired.');
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o600);
    expect(pairing).toMatchObject({
      server: server.url,
      workspaceId: server.person.workspaceId,
      userId: server.person.userId,
    });
    expect(pairing.deviceId).not.toBe(paired.deviceId);
    const config = await fetch(`${server.url}/api/v1/agent/config`, {
      headers: { authorization: `Bearer ${pairing.token}` },
    });
    expect(config.status).toBe(200);
    // The settings as fetched before the person revoked the computer on their profile page.
    fs.writeFileSync(path.join(stateDir, 'settings.json'), JSON.stringify((await config.json()) as AgentConfigView));
    expect((await server.call('DELETE', `/api/v1/me/devices/${pairing.deviceId}`)).status).toBe(204);

    configFile = fresh;
    const from = Date.now() - 6 * HOUR;
    SpanQueue.open(stateDir).append(makeSpans(3, from));
    focus(windows.clock);
    const agent = startAgent();
    await until('unpaired', () => agent.output().includes('unpaired'));
    expect(agent.output()).toContain('run "sundial-agent pair" again');
    await useFor(600);
    agent.kill('SIGTERM');
    expect(await exited(agent)).toBe(0);
    expect((await storedSpans(from - HOUR)).filter((span) => span.deviceId === pairing.deviceId)).toEqual([]);
    expect(countQueued(stateDir)).toBe(4); // the three waiting, and the Clock window it recorded meanwhile
  });

  it('says why it cannot track a session and exits non-zero', () => {
    const { DISPLAY: _display, ...env } = screen.env;
    const result = spawnSync(process.execPath, [bundle, 'run', '--state-dir', stateDir, '--config', configFile], {
      encoding: 'utf8',
      env: { ...env, WAYLAND_DISPLAY: 'wayland-0', XDG_SESSION_TYPE: 'wayland' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('cannot track this session: This is a Wayland session');
    const noDisplay = spawnSync(process.execPath, [bundle, 'run', '--state-dir', stateDir, '--config', configFile], {
      encoding: 'utf8',
      env,
    });
    expect(noDisplay.status).toBe(2);
    expect(noDisplay.stderr).toContain('No X display: DISPLAY is not set.');
    expect(countQueued(stateDir)).toBe(0);
  });

  /** How many of the queued spans of `app` the agent still holds (the server has not acknowledged them). */
  const unacknowledged = (app: string) =>
    SpanQueue.open(stateDir)
      .peek(10_000)
      .filter((item) => item.span?.app === app).length;
  const storedOf = async (app: string, from: number) =>
    (await storedSpans(from - HOUR, from + 9 * HOUR)).filter((span) => span.app === app).length;

  /**
   * Queues 3,000 spans of `app` (three uploads) from `from`, starts the agent, and freezes it
   * (SIGSTOP) at the worst moment: the server has stored an upload whose answer the agent has not
   * read. Then `interrupt` kills something, and an agent drains the queue. Every queued span must be
   * stored once, as queued, and counted once in the server's daily seconds.
   */
  async function interruptedUpload(
    from: number,
    app: string,
    interrupt: (agent: RunningAgent) => Promise<RunningAgent>,
  ) {
    const queued = makeSpans(3000, from, app);
    SpanQueue.open(stateDir).append(queued);
    focus(windows.clock);
    const first = startAgent();
    await until('an upload acknowledged', () => unacknowledged(app) < queued.length, 30_000);
    // Lets it run in slices of 20 ms until, frozen, it has sent an upload the server stored.
    for (;;) {
      first.kill('SIGSTOP');
      const acknowledged = queued.length - unacknowledged(app);
      expect(acknowledged).toBeLessThan(queued.length); // it froze before the end
      const deadline = Date.now() + 1000;
      let stored = await storedOf(app, from);
      while (stored === acknowledged && Date.now() < deadline) {
        await sleep(50);
        stored = await storedOf(app, from);
      }
      if (stored > acknowledged) break; // stored, and the answer unread
      first.kill('SIGCONT');
      await sleep(20);
    }
    const last = await interrupt(first);
    await until('an empty queue', () => countQueued(stateDir) === 0, 40_000);
    last.kill('SIGTERM');
    expect(await exited(last)).toBe(0);

    // Nothing lost, nothing doubled: each queued span is stored, once, as the agent queued it.
    const stored = await storedSpans(from - HOUR, from + 9 * HOUR);
    expect(stored.map(({ deviceId: _device, ...span }) => span)).toEqual(queued);
    // And the server's daily seconds count each once (9 s a span), not the resent ones again.
    const days = `from=${new Date(from - 2 * HOUR * 24).toISOString().slice(0, 10)}&to=${new Date().toISOString().slice(0, 10)}`;
    const daily = await server.call<{ items: { app: string; seconds: number }[] }>(
      'GET',
      `/api/v1/workspaces/${server.person.workspaceId}/computer-time/activities?${days}`,
    );
    expect(daily.status).toBe(200);
    const ofApp = daily.body.items.filter((item) => item.app === app);
    expect(ofApp.reduce((sum, item) => sum + item.seconds, 0)).toBe(queued.length * 9);
  }

  it('loses and doubles nothing when it is killed -9 in the middle of an upload', async () => {
    await interruptedUpload(Date.now() - 40 * HOUR, 'Editor', async (first) => {
      first.kill('SIGKILL');
      await exited(first);
      await useFor(300);
      return startAgent();
    });
  });

  it('loses and doubles nothing when the server is killed in the middle of an upload and started again', async () => {
    await interruptedUpload(Date.now() - 30 * HOUR, 'Terminal', async (agent) => {
      await server.kill();
      agent.kill('SIGCONT'); // its upload's connection is gone: the answer never comes
      await until('offline', () => agent.output().includes('offline'));
      await server.start();
      return agent;
    });
  });
});
