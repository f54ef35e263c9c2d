import { type ChildProcess, execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AgentSpan } from '@sundial/core/activity';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countQueued, SpanQueue } from './queue.js';
import { writePairing } from './settings.js';
import { makeSpans } from './test/fixtures.js';
import { type Receiver, startReceiver } from './test/receiver.js';
import { hasXTools, startXvfb, type VirtualDisplay } from './test/xvfb.js';

/**
 * The packaged agent (dist/sundial-agent.mjs, built here) run as a process on a real X server, against
 * a receiver that implements the documented upload contract (test/receiver.ts). To be switched to
 * the built API (apps/api/dist/main.mjs) once its agent routes are merged.
 */
const run = hasXTools() || Boolean(process.env.CI);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const POLL_MS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, check: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe.runIf(run)('sundial-agent run, on a real X server', () => {
  let screen: VirtualDisplay;
  let bundle: string;
  let work: string;
  let receiver: Receiver;
  const windows: Record<string, string> = {};
  const agents: ChildProcess[] = [];

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-agent-'));
    bundle = path.join(work, 'sundial-agent.mjs');
    execFileSync(process.execPath, [path.join(root, 'scripts/build-agent.mjs'), bundle], { cwd: root });
    screen = await startXvfb();
    windows.logo = await screen.open('xlogo', ['-title', 'Logo window'], 'Logo window');
    windows.clock = await screen.open('xclock', ['-title', 'Clock window'], 'Clock window');
    windows.message = await screen.open('xmessage', ['-title', 'Message window', 'hello'], 'Message window');
  }, 60_000);
  afterAll(async () => {
    await screen?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  let stateDir: string;
  let configFile: string;
  beforeEach(async () => {
    stateDir = fs.mkdtempSync(path.join(work, 'state-'));
    configFile = path.join(stateDir, 'config.json');
    receiver = await startReceiver({ idleSeconds: 2, keep: 'titles' });
    writePairing(configFile, {
      server: receiver.url,
      token: receiver.token,
      deviceId: 'd1',
      workspaceId: 'w1',
      userId: 'u1',
      pairedAt: new Date().toISOString(),
    });
  });
  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.kill('SIGKILL');
    await receiver.close();
  });

  function startAgent(): ChildProcess & { output: () => string } {
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
  const exited = (agent: ChildProcess) =>
    new Promise<number | null>((resolve) => {
      if (agent.exitCode !== null || agent.signalCode !== null) resolve(agent.exitCode);
      else agent.once('exit', (code) => resolve(code));
    });

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

  it('records focused windows as spans under the workspace rules, back-dates away time to the last input, and uploads them', async () => {
    receiver.config.exclusions = [{ field: 'app', pattern: 'XMESS*' }];
    focus(windows.logo);
    screen.x('xdotool', 'mousemove', '10', '10');
    const agent = startAgent();
    await until('tracking', () => agent.output().includes('tracking'));
    const started = Date.now();
    await useFor(1000);
    const toClock = focus(windows.clock);
    await useFor(1000);
    const toMessage = focus(windows.message);
    const lastInput = await useFor(800);
    await sleep(3000); // no input: past the 2 s threshold
    // Focus is not input: the agent still sees away time until the pointer moves.
    focus(windows.logo);
    const back = Date.now();
    screen.x('xdotool', 'mousemove', '300', '300');
    await useFor(600);
    agent.kill('SIGTERM');
    expect(await exited(agent)).toBe(0);

    // Everything reached the receiver (the last span in the agent's final upload on SIGTERM).
    expect(countQueued(stateDir)).toBe(0);
    const spans = [...receiver.stored.values()].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
    const shape = (span: AgentSpan) =>
      span.kind === 'away' ? `away:${span.awayReason}` : `${span.app}: ${span.title}`;
    expect(spans.map(shape)).toEqual([
      'XLogo: Logo window',
      'XClock: Clock window',
      'excluded: null', // the exclusion rule applied on the computer: neither name nor title left it
      'away:idle',
      'XLogo: Logo window',
    ]);
    const [logo, clock, message, away, logoAgain] = spans as [AgentSpan, AgentSpan, AgentSpan, AgentSpan, AgentSpan];
    const at = (iso: string) => Date.parse(iso);
    // Each boundary lies within a poll of the moment the focus moved. A poll is stamped when it starts
    // and its X queries take a while (hundreds of ms on a loaded machine), so one that began just
    // before the move may see it: hence the slack on both sides.
    const near = (boundary: string, moment: number) => {
      expect(at(boundary) - moment).toBeGreaterThanOrEqual(-POLL_MS - 300);
      expect(at(boundary) - moment).toBeLessThanOrEqual(POLL_MS + 700);
    };
    expect(at(logo.startedAt)).toBeLessThanOrEqual(started);
    near(logo.endedAt, toClock);
    near(clock.endedAt, toMessage);
    // Away starts at the last input (X's own idle clock), and the active span is cut there.
    expect(Math.abs(at(away.startedAt) - lastInput)).toBeLessThanOrEqual(250);
    expect(message.endedAt).toBe(away.startedAt);
    near(away.endedAt, back);
    expect(logoAgain.startedAt).toBe(away.endedAt);
    for (let i = 1; i < spans.length; i++) expect(spans[i]?.startedAt).toBe(spans[i - 1]?.endedAt);
    // What was sent is what the person can list.
    const listed = execFileSync(process.execPath, [bundle, 'uploaded', '--state-dir', stateDir], {
      encoding: 'utf8',
      env: screen.env,
    });
    expect(listed.split('\n').filter(Boolean)).toHaveLength(5);
    expect(listed).toContain('away (idle)');
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
    const spans = [...receiver.stored.values()].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
    expect(spans.map((span) => span.app)).toEqual(['XClock', 'XClock']);
    // Nothing was recorded between the pause and the resume (give or take a poll).
    expect(Date.parse(spans[0]?.endedAt ?? '')).toBeLessThanOrEqual(pausedAt + POLL_MS);
    expect(Date.parse(spans[1]?.startedAt ?? '')).toBeGreaterThanOrEqual(resumedAt - POLL_MS);
  });

  it('records nothing before it has had the workspace settings once', async () => {
    await receiver.close(); // the server cannot be reached
    focus(windows.clock);
    const agent = startAgent();
    await until('waiting', () => agent.output().includes('waiting'));
    await useFor(600);
    agent.kill('SIGTERM');
    expect(await exited(agent)).toBe(0);
    expect(countQueued(stateDir)).toBe(0);
  });

  it('keeps recording into its queue when its token is revoked, and says to pair again', async () => {
    SpanQueue.open(stateDir).append(makeSpans(3, Date.parse('2026-11-29T08:00:00Z')));
    fs.writeFileSync(path.join(stateDir, 'settings.json'), JSON.stringify(receiver.config)); // fetched before
    receiver.token = 'sdd_another-token'; // the server no longer knows this computer's token
    focus(windows.clock);
    const agent = startAgent();
    await until('unpaired', () => agent.output().includes('unpaired'));
    expect(agent.output()).toContain('run "sundial-agent pair" again');
    await useFor(600);
    agent.kill('SIGTERM');
    expect(await exited(agent)).toBe(0);
    expect(receiver.stored.size).toBe(0);
    expect(countQueued(stateDir)).toBe(4); // the three waiting, and the Clock window it recorded meanwhile
  });

  it('pairs by device code and keeps the token in a file only its owner reads', async () => {
    receiver.slowDownFirst = false;
    receiver.pendingPolls = 1;
    const fresh = path.join(stateDir, 'fresh', 'config.json');
    // Asynchronously: the receiver answers from this process.
    const { stdout: output } = await promisify(execFile)(process.execPath, [
      bundle,
      'pair',
      '--server',
      `${receiver.url}/`,
      '--config',
      fresh,
    ]);
    expect(output).toContain(`${receiver.url}/devices?code=BCDF-GHJK`);
    expect(output).toContain('Paired.');
    expect(receiver.tokenPolls).toHaveLength(2);
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(fresh, 'utf8'))).toMatchObject({ server: receiver.url, token: receiver.token });
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

  it('loses and doubles nothing when it is killed -9 in the middle of an upload', async () => {
    const queued = makeSpans(2500, Date.parse('2026-11-29T08:00:00Z'));
    SpanQueue.open(stateDir).append(queued);
    focus(windows.clock);
    // The first batch is answered; the second is stored by the server and never answered.
    receiver.holdUpload = 1;
    const first = startAgent();
    await receiver.held;
    first.kill('SIGKILL');
    await exited(first);
    expect(receiver.uploads.map((upload) => upload.answered)).toEqual([true, false]);
    expect(receiver.stored.size).toBe(2000);
    expect(countQueued(stateDir)).toBeGreaterThanOrEqual(1500); // the unanswered batch is still queued

    await useFor(300);
    const second = startAgent();
    await until('every queued span', () => queued.every((span) => receiver.stored.has(span.id)));
    await until('an empty queue', () => countQueued(stateDir) === 0);
    second.kill('SIGTERM');
    expect(await exited(second)).toBe(0);

    // Nothing lost: every queued span is stored, once (the receiver keeps each id once, as the API does).
    for (const span of queued) expect(receiver.stored.get(span.id)).toEqual(span);
    // Nothing doubled: no span answered 2xx was ever sent again; only the unanswered batch went twice.
    const sentAfterAnswer = new Set<string>();
    let resent = 0;
    for (const upload of receiver.uploads) {
      for (const id of upload.ids) if (sentAfterAnswer.has(id)) resent++;
      if (upload.answered) for (const id of upload.ids) sentAfterAnswer.add(id);
    }
    expect(resent).toBe(0);
    const heldIds = new Set(receiver.uploads[1]?.ids);
    expect(heldIds.size).toBe(1000);
    const sentTwice = queued.filter((span) => receiver.uploads.filter((u) => u.ids.includes(span.id)).length > 1);
    expect(sentTwice.every((span) => heldIds.has(span.id))).toBe(true);
  });
});
