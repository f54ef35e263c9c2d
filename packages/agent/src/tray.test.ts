import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type MessageBus, sessionBus } from '@homebridge/dbus-native';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentStatus, readPause } from './control.js';
import { startTray, TRAY_ITEM_PATH } from './tray.js';

// CI installs dbus-daemon (scripts/ensure-xvfb.sh) and must run this; elsewhere it may be skipped.
const run = spawnSync('sh', ['-c', 'command -v dbus-daemon']).status === 0 || Boolean(process.env.CI);

/** A session bus of its own: dbus-daemon, as a desktop session starts it. */
async function startBus(): Promise<{ address: string; stop: () => void }> {
  const daemon: ChildProcess = spawn('dbus-daemon', ['--session', '--nofork', '--print-address'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    daemon.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()));
    daemon.once('error', reject);
  });
  return { address, stop: () => daemon.kill() };
}

/** The desktop's side: a tray host (a StatusNotifierWatcher) that hears which items register. */
function trayHost(address: string): Promise<{ registered: string[]; bus: MessageBus }> {
  const bus = sessionBus({ busAddress: address });
  const registered: string[] = [];
  bus.exportInterface(
    { RegisterStatusNotifierItem: (name: string) => registered.push(name) },
    '/StatusNotifierWatcher',
    {
      name: 'org.kde.StatusNotifierWatcher',
      methods: { RegisterStatusNotifierItem: ['s', ''] },
      properties: {},
      signals: {},
    },
  );
  return new Promise((resolve) =>
    bus.requestName('org.kde.StatusNotifierWatcher', 4, () => resolve({ registered, bus })),
  );
}

const ask = (bus: MessageBus, name: string, member: string, signature: string, body: unknown[]) =>
  new Promise<unknown[]>((resolve, reject) =>
    bus.invoke(
      { destination: name, path: TRAY_ITEM_PATH, interface: 'org.kde.StatusNotifierItem', member, signature, body },
      (error, ...answer) => (error ? reject(error) : resolve(answer)),
    ),
  );
/** A property of the item as the tray host reads it ([signature, [value]] on the wire). */
const property = (bus: MessageBus, name: string, key: string) =>
  new Promise<unknown>((resolve, reject) =>
    bus.invoke(
      {
        destination: name,
        path: TRAY_ITEM_PATH,
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Get',
        signature: 'ss',
        body: ['org.kde.StatusNotifierItem', key],
      },
      (error, value) => (error ? reject(error) : resolve((value as [unknown, unknown[]])[1][0])),
    ),
  );

const status = (state: AgentStatus['state'], detail: string): AgentStatus => ({
  pid: process.pid,
  state,
  detail,
  queued: 3,
  current: null,
  lastUploadAt: null,
  server: 'http://localhost',
  updatedAt: new Date().toISOString(),
});

describe.runIf(run)('the tray (a StatusNotifierItem on a real session bus)', () => {
  let bus: { address: string; stop: () => void };
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-tray-'));
  beforeAll(async () => {
    bus = await startBus();
  });
  afterAll(() => bus?.stop());

  it('is not there without a session bus, or on a desktop without a tray', async () => {
    expect(await startTray({ busAddress: undefined, stateDir })).toBeNull();
    expect(await startTray({ busAddress: bus.address, stateDir })).toBeNull();
  });

  it('registers with the tray, shows the state, and a click pauses and resumes recording', async () => {
    const host = await trayHost(bus.address);
    const toggles: boolean[] = [];
    const tray = await startTray({ busAddress: bus.address, stateDir, toggled: (paused) => toggles.push(paused) });
    expect(tray).not.toBeNull();
    const name = `org.kde.StatusNotifierItem-${process.pid}-1`;
    expect(host.registered).toEqual([name]);
    try {
      tray?.update(status('tracking', 'code'));
      expect(await property(host.bus, name, 'Title')).toBe('Sundial: recording');
      expect(await property(host.bus, name, 'IconName')).toBe('media-record');
      const tip = (await property(host.bus, name, 'ToolTip')) as [string, unknown[], string, string];
      expect(tip[2]).toBe('Sundial: recording');
      expect(tip[3]).toBe('code · 3 spans to upload · click to pause');

      await ask(host.bus, name, 'Activate', 'ii', [10, 10]);
      expect(readPause(stateDir, new Date())).toEqual({ until: null });
      await ask(host.bus, name, 'Activate', 'ii', [10, 10]);
      expect(readPause(stateDir, new Date())).toBe(false);
      expect(toggles).toEqual([true, false]);

      tray?.update(status('offline', 'the server does not answer'));
      expect(await property(host.bus, name, 'Status')).toBe('NeedsAttention');
      expect(await property(host.bus, name, 'IconName')).toBe('network-offline');
    } finally {
      tray?.close();
      host.bus.connection.end();
    }
  });
});
