#!/usr/bin/env node
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createApi } from './api-client.js';
import { selectBackend } from './backends/index.js';
import { clearPause, readPause, readStatus, writePause } from './control.js';
import { pairDevice } from './pair.js';
import { configFile, stateDir } from './paths.js';
import { countQueued } from './queue.js';
import { runAgent } from './run.js';
import { localDay, SentLog } from './sent-log.js';
import { type Pairing, readPairing, writePairing } from './settings.js';
import { startTray } from './tray.js';
import { AGENT_VERSION } from './version.js';

const USAGE = `sundial-agent ${AGENT_VERSION}: records which application you use, as spans, for Sundial.

Usage:
  sundial-agent pair --server URL [--name NAME]   connect this computer to your Sundial account
  sundial-agent run [--poll-ms 1000] [--upload-every 60] [--no-tray]
                                                  track and upload (keep it running; see README);
                                                  in the desktop's tray where it has one
  sundial-agent status                            what the agent is doing, and what waits for upload
  sundial-agent pause [--minutes N]               stop recording (for N minutes, or until resume)
  sundial-agent resume                            record again
  sundial-agent uploaded [--day YYYY-MM-DD]       everything this computer sent that day (7 days kept)
  sundial-agent --version

Every command takes --state-dir DIR (queue and status; default ~/.local/state/sundial-agent) and
--config FILE (server and device token; default ~/.config/sundial-agent/config.json).`;

const userAgent = `sundial-agent/${AGENT_VERSION} (${process.platform}; node ${process.versions.node})`;

function positiveNumber(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new UsageError(`--${name} takes a positive number, not "${value}".`);
  return number;
}

class UsageError extends Error {}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'state-dir': { type: 'string' },
      config: { type: 'string' },
      server: { type: 'string' },
      name: { type: 'string' },
      'poll-ms': { type: 'string' },
      'upload-every': { type: 'string' },
      'config-every': { type: 'string' },
      minutes: { type: 'string' },
      day: { type: 'string' },
      'no-tray': { type: 'boolean' },
      version: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.version) {
    console.log(AGENT_VERSION);
    return 0;
  }
  const [command, ...extra] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command || values.help ? 0 : 2;
  }
  if (extra.length > 0) throw new UsageError(`Unexpected: ${extra.join(' ')}`);
  const dir = stateDir(values['state-dir']);
  const settingsFile = configFile(values.config);

  switch (command) {
    case 'pair': {
      if (!values.server) throw new UsageError('pair needs --server, the address of your Sundial (https://…).');
      const server = new URL(values.server).origin;
      const pairing = await pairDevice({
        server,
        api: createApi({ server, userAgent }),
        agentVersion: AGENT_VERSION,
        name: values.name,
        print: (line) => console.log(line),
      });
      writePairing(settingsFile, pairing);
      console.log(`Paired. The device token is in ${settingsFile} (readable by you only).`);
      console.log('Start tracking with: sundial-agent run');
      return 0;
    }
    case 'run': {
      const backend = selectBackend();
      const support = 'supported' in backend ? await backend.supported() : backend;
      if (!support.ok || !('supported' in backend)) {
        console.error(`sundial-agent cannot track this session: ${support.reason}`);
        return 2;
      }
      console.error(`sundial-agent ${AGENT_VERSION}: ${support.reason}`);
      const stop = new Promise((resolve) => {
        // The terminal closing (SIGHUP) stops it as cleanly as Ctrl-C and systemd do.
        for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, resolve);
      });
      const tray = values['no-tray']
        ? null
        : await startTray({ busAddress: process.env.DBUS_SESSION_BUS_ADDRESS, stateDir: dir });
      if (tray) console.error('In the tray: a click pauses or resumes recording.');
      return runAgent({
        tray,
        stateDir: dir,
        backend,
        readPairing: () => readPairing(settingsFile),
        createApi: (pairing: Pairing) => createApi({ server: pairing.server, token: pairing.token, userAgent }),
        pollMs: positiveNumber(values['poll-ms'], 'poll-ms', 1000),
        uploadEveryMs: positiveNumber(values['upload-every'], 'upload-every', 60) * 1000,
        configEveryMs: positiveNumber(values['config-every'], 'config-every', 600) * 1000,
        out: process.stdout,
        log: (message) => console.error(message),
        stop,
      });
    }
    case 'status': {
      const pairing = readPairing(settingsFile);
      const status = readStatus(dir);
      console.log(pairing ? `Paired with ${pairing.server} (since ${pairing.pairedAt}).` : 'Not paired.');
      if (status) {
        console.log(`Running (pid ${status.pid}): ${status.state}, ${status.detail}.`);
        console.log(`Last upload: ${status.lastUploadAt ?? 'none yet'}.`);
      } else {
        console.log('Not running.');
        const paused = readPause(dir, new Date());
        if (paused) console.log(`Paused ${paused.until ? `until ${paused.until.toLocaleString()}` : 'until resumed'}.`);
      }
      console.log(`${countQueued(dir)} span(s) wait for upload in ${dir}.`);
      return 0;
    }
    case 'pause': {
      const minutes = values.minutes === undefined ? null : positiveNumber(values.minutes, 'minutes', 0);
      const until = minutes === null ? null : new Date(Date.now() + minutes * 60_000);
      writePause(dir, until);
      console.log(until ? `Paused until ${until.toLocaleTimeString()}.` : 'Paused until "sundial-agent resume".');
      return 0;
    }
    case 'resume': {
      clearPause(dir);
      console.log('Recording again.');
      return 0;
    }
    case 'uploaded': {
      const day = values.day ?? localDay(new Date());
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new UsageError('--day takes a date as YYYY-MM-DD.');
      const spans = new SentLog(dir).read(day);
      if (spans.length === 0) console.log(`Nothing was uploaded for ${day}.`);
      const time = (iso: string) => new Date(iso).toLocaleTimeString();
      for (const span of spans) {
        const what =
          span.kind === 'away'
            ? `away (${span.awayReason})`
            : [span.app, span.title, span.url].filter((part) => part !== null).join(' · ');
        console.log(`${time(span.startedAt)} – ${time(span.endedAt)}  ${what}`);
      }
      return 0;
    }
    default:
      throw new UsageError(`Unknown command "${command}".${os.EOL}${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // An upload still in flight must not keep a stopped agent alive: its spans stay queued.
    process.exit(code);
  },
  (error: Error) => {
    console.error(
      error instanceof UsageError || error.name === 'TypeError' ? error.message : `sundial-agent: ${error.message}`,
    );
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
