import path from 'node:path';
import type { AgentConfigView } from '@sundial/core/activity';
import { type AgentApi, ApiError } from './api-client.js';
import type { PlatformBackend } from './backends/index.js';
import { type AgentStatus, lockStateDir, readPause, writeStatus } from './control.js';
import { createPrivacyFilter, type WindowObservation } from './privacy.js';
import { SpanQueue } from './queue.js';
import { SentLog } from './sent-log.js';
import { type Pairing, readCachedConfig, writeCachedConfig } from './settings.js';
import { SpanMerger } from './spans.js';
import type { Tray } from './tray.js';
import { backoffMs, uploadQueue } from './uploader.js';

export interface RunOptions {
  stateDir: string;
  backend: PlatformBackend;
  /** Read again after the server refuses the token, so that pairing anew reaches a running agent. */
  readPairing: () => Pairing | null;
  createApi: (pairing: Pairing) => AgentApi;
  pollMs: number;
  uploadEveryMs: number;
  configEveryMs: number;
  /** The status line (stdout): rewritten in place on a terminal, one line per change otherwise. */
  out: NodeJS.WritableStream & { isTTY?: boolean };
  log: (message: string) => void;
  /** Resolves when the agent should stop (SIGTERM, SIGINT). */
  stop: Promise<unknown>;
  /** The desktop's tray, where there is one (tray.ts): told every status. */
  tray?: Tray | null;
}

/** A backend failing this long in a row (the X display went away) ends the agent with an error. */
const BACKEND_FAILURE_LIMIT_MS = 30_000;
/** How long a stopping agent waits for its last upload. */
const FINAL_UPLOAD_MS = 3_000;

/**
 * `sundial-agent run`: polls the backend, merges into spans under the workspace's settings, stores
 * closed spans in the queue, uploads in the background about once a minute (backing off while the
 * server cannot be reached) and fetches the settings at start and every ten minutes. Polling never
 * waits for the network. Stopping closes the open span into the queue. Answers the exit code.
 */
export async function runAgent(options: RunOptions): Promise<number> {
  const lock = lockStateDir(options.stateDir);
  if ('heldBy' in lock) {
    options.log(`Another sundial-agent (pid ${lock.heldBy}) is already running on ${options.stateDir}.`);
    return 1;
  }
  const configCache = path.join(options.stateDir, 'settings.json');
  const queue = SpanQueue.open(options.stateDir);
  const sentLog = new SentLog(options.stateDir);
  let pairing = options.readPairing();
  if (!pairing) {
    lock.release();
    options.log('This computer is not paired: run "sundial-agent pair --server https://your-sundial".');
    return 1;
  }
  let api = options.createApi(pairing);

  let config: AgentConfigView | null = null;
  // Replaced whole when the settings change (a holder, as closures assign it).
  const tracking: { merger: SpanMerger | null; privacy: ((window: WindowObservation) => WindowObservation) | null } = {
    merger: null,
    privacy: null,
  };
  const useConfig = (next: AgentConfigView) => {
    const same =
      config &&
      config.keep === next.keep &&
      config.idleSeconds === next.idleSeconds &&
      JSON.stringify(config.exclusions) === JSON.stringify(next.exclusions);
    config = next;
    if (same) return;
    // New rules apply from now: what was recorded under the old ones is closed first.
    if (tracking.merger) queue.append(tracking.merger.close());
    tracking.merger = new SpanMerger({ idleSeconds: next.idleSeconds });
    tracking.privacy = createPrivacyFilter(next);
  };
  const cached = readCachedConfig(configCache);
  if (cached) useConfig(cached);

  let stopping = false;
  let wake: () => void = () => {};
  void options.stop.then(() => {
    stopping = true;
    wake();
  });
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  let unauthorized: string | null = null;
  let offline: string | null = null;
  let failures = 0;
  let lastUploadAt: Date | null = null;
  let nextUploadAt = 0;
  let nextConfigAt = 0;
  let uploading = false;
  let fetching = false;

  const refused = (error: unknown) => error instanceof ApiError && (error.status === 401 || error.status === 403);
  const renewPairing = () => {
    const latest = options.readPairing();
    if (latest && latest.token !== pairing?.token) {
      pairing = latest;
      api = options.createApi(latest);
      unauthorized = null;
    }
  };

  const fetchConfig = async () => {
    fetching = true;
    try {
      const next = await api.config();
      const skew = Math.abs(Date.parse(next.serverTime) - Date.now());
      if (skew > 5 * 60_000)
        options.log(`This computer's clock is ${Math.round(skew / 60_000)} minutes off the server's.`);
      writeCachedConfig(configCache, next);
      useConfig(next);
      unauthorized = null;
      nextConfigAt = Date.now() + options.configEveryMs;
    } catch (error) {
      if (refused(error)) unauthorized = (error as Error).message;
      nextConfigAt = Date.now() + Math.min(backoffMs(failures + 1), options.configEveryMs);
    } finally {
      fetching = false;
    }
  };

  const upload = async () => {
    uploading = true;
    try {
      const outcome = await uploadQueue({ queue, sentLog, api, stateDir: options.stateDir });
      if (outcome.accepted > 0 || outcome.kind === 'done') lastUploadAt = new Date();
      if (outcome.kind === 'done') {
        failures = 0;
        offline = null;
        if (outcome.rejected > 0)
          options.log(`${outcome.rejected} span(s) refused by the server, set aside in rejected.jsonl.`);
        nextUploadAt = Date.now() + options.uploadEveryMs;
      } else if (outcome.kind === 'unauthorized') {
        unauthorized = outcome.message;
        nextUploadAt = Date.now() + options.configEveryMs;
      } else {
        failures++;
        offline = outcome.message;
        nextUploadAt = Date.now() + (outcome.retryAfterMs ?? backoffMs(failures));
      }
    } finally {
      uploading = false;
    }
  };

  let printedState = '';
  let printedLine = '';
  const report = (current: string | null, paused: false | { until: Date | null }) => {
    let state: AgentStatus['state'];
    let detail: string;
    if (unauthorized) {
      state = 'unpaired';
      detail = `the server refused this computer's token (${unauthorized}): run "sundial-agent pair" again`;
    } else if (paused) {
      state = 'paused';
      detail = paused.until ? `until ${paused.until.toLocaleTimeString()}` : 'until "sundial-agent resume"';
    } else if (!config) {
      state = 'waiting';
      detail = "for the workspace's settings from the server (nothing is recorded before)";
    } else if (offline) {
      state = 'offline';
      detail = `${offline}; next try in ${Math.max(0, Math.round((nextUploadAt - Date.now()) / 1000))} s`;
    } else {
      state = 'tracking';
      detail = current ?? 'no window has the focus';
    }
    const queued = queue.pending();
    const status: AgentStatus = {
      pid: process.pid,
      state,
      detail,
      queued,
      current,
      lastUploadAt: lastUploadAt?.toISOString() ?? null,
      server: pairing?.server ?? '',
      updatedAt: new Date().toISOString(),
    };
    writeStatus(options.stateDir, status);
    options.tray?.update(status);
    const line = `${state} · ${detail} · ${queued} span${queued === 1 ? '' : 's'} queued`;
    if (options.out.isTTY) {
      if (line !== printedLine) options.out.write(`\r\x1b[2K${line}`);
    } else if (state !== printedState) {
      options.out.write(`${line}\n`);
    }
    printedLine = line;
    printedState = state;
  };

  let failingSince: number | null = null;
  let wasPaused = false;
  let exitCode = 0;
  while (!stopping) {
    const now = Date.now();
    if (unauthorized) renewPairing();
    if (now >= nextConfigAt && !fetching) void fetchConfig();
    if (now >= nextUploadAt && !uploading && !unauthorized) void upload();

    const paused = readPause(options.stateDir, new Date(now));
    let current: string | null = null;
    const { merger, privacy } = tracking;
    if (paused) {
      if (!wasPaused && merger) queue.append(merger.close());
      wasPaused = true;
    } else if (merger && privacy) {
      wasPaused = false;
      try {
        const [window, idleSeconds, locked] = await Promise.all([
          options.backend.activeWindow(),
          // As of `now`: the tool answered later, and the last input is that much further back.
          options.backend.idleSeconds().then((idle) => Math.max(0, idle - (Date.now() - now) / 1000)),
          options.backend.isLocked(),
        ]);
        failingSince = null;
        queue.append(merger.tick(now, { window: window && privacy(window), idleSeconds, locked }));
        const open = merger.current();
        current = open ? (open.kind === 'away' ? `away (${open.awayReason})` : open.app) : null;
      } catch (error) {
        failingSince ??= now;
        if (now - failingSince >= BACKEND_FAILURE_LIMIT_MS) {
          options.log(`Stopped: ${(error as Error).message}`);
          exitCode = 3;
          break;
        }
      }
    }
    report(current, paused);
    await sleep(Math.max(0, options.pollMs - (Date.now() - now)));
  }

  if (tracking.merger) queue.append(tracking.merger.close());
  // One last try to send what was just closed (logging out, shutting down); whatever does not make
  // it in a few seconds stays queued for the next start.
  if (!uploading && !unauthorized && queue.pending() > 0) {
    await Promise.race([upload(), new Promise((resolve) => setTimeout(resolve, FINAL_UPLOAD_MS).unref())]);
  }
  if (options.out.isTTY) options.out.write('\n');
  options.backend.close?.();
  options.tray?.close();
  lock.release();
  return exitCode;
}
