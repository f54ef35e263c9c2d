import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasXTools, startXvfb, type VirtualDisplay } from '../test/xvfb.js';
import { selectBackend } from './index.js';
import { createX11Backend } from './x11.js';

// CI installs the X tools (scripts/ensure-xvfb.sh) and must run this; elsewhere it may be skipped.
const run = hasXTools() || Boolean(process.env.CI);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(run)('the X11 backend on a real X server (Xvfb)', () => {
  let screen: VirtualDisplay;
  const windows: Record<string, string> = {};
  beforeAll(async () => {
    screen = await startXvfb();
    windows.logo = await screen.open('xlogo', ['-title', 'Logo window'], 'Logo window');
    windows.clock = await screen.open('xclock', ['-title', 'Clock window'], 'Clock window');
    windows.message = await screen.open('xmessage', ['-title', 'Message window', 'hello'], 'Message window');
    // A UTF-8 title as today's programs set it (_NET_WM_NAME), beside the old WM_NAME.
    screen.x('xdotool', 'set_window', '--name', 'Message – ünïcode', windows.message);
  }, 60_000);
  afterAll(() => screen?.stop());

  it('names the focused window by its class and title as focus moves', async () => {
    const backend = createX11Backend(screen.env);
    expect(await backend.supported()).toEqual({
      ok: true,
      reason: `X11 on ${screen.display}: the focused window is the X input focus (no EWMH window manager); idle time from xprintidle.`,
    });
    const seen = [];
    for (const id of [windows.logo, windows.clock, windows.message] as string[]) {
      screen.x('xdotool', 'windowfocus', '--sync', id);
      seen.push(await backend.activeWindow());
    }
    expect(seen).toEqual([
      { app: 'XLogo', title: 'Logo window', url: null },
      { app: 'XClock', title: 'Clock window', url: null },
      { app: 'Xmessage', title: 'Message – ünïcode', url: null },
    ]);
  });

  it("prefers the window manager's _NET_ACTIVE_WINDOW to the input focus", async () => {
    const backend = createX11Backend(screen.env);
    screen.x('xdotool', 'windowfocus', '--sync', windows.logo as string);
    // What an EWMH window manager sets on the root window.
    screen.x(
      'xprop',
      '-root',
      '-f',
      '_NET_ACTIVE_WINDOW',
      '32x',
      '-set',
      '_NET_ACTIVE_WINDOW',
      windows.clock as string,
    );
    try {
      expect(await backend.activeWindow()).toEqual({ app: 'XClock', title: 'Clock window', url: null });
      expect((await backend.supported()).reason).toContain("the window manager's active window");
    } finally {
      screen.x('xprop', '-root', '-remove', '_NET_ACTIVE_WINDOW');
    }
    expect(await backend.activeWindow()).toEqual({ app: 'XLogo', title: 'Logo window', url: null });
  });

  it('reads the time since the last input', async () => {
    const backend = createX11Backend(screen.env);
    screen.x('xdotool', 'mousemove', '100', '100');
    expect(await backend.idleSeconds()).toBeLessThan(0.5);
    await sleep(1200);
    expect(await backend.idleSeconds()).toBeGreaterThanOrEqual(1);
    screen.x('xdotool', 'mousemove', '120', '120');
    expect(await backend.idleSeconds()).toBeLessThan(0.5);
  });

  it('answers no lock state where logind cannot tell, rather than a guess', async () => {
    const backend = createX11Backend(screen.env);
    if (fs.existsSync('/run/systemd/seats')) return; // a machine with logind answers for real
    expect(await backend.isLocked()).toBeNull();
  });

  it('refuses a session it cannot watch, and says why', async () => {
    expect(await createX11Backend({ ...screen.env, DISPLAY: '' }).supported()).toEqual({
      ok: false,
      reason: 'No X display: DISPLAY is not set. Run the agent inside your desktop session.',
    });
    const gone = await createX11Backend({ ...screen.env, DISPLAY: ':4099' }).supported();
    expect(gone.ok).toBe(false);
    expect(gone.reason).toMatch(/^Cannot read the X display :4099/);
    const missingTools = await createX11Backend({ ...screen.env, PATH: '/nonexistent' }).supported();
    expect(missingTools).toEqual({
      ok: false,
      reason: 'xprop is missing: install it (Debian and Ubuntu: apt install x11-utils).',
    });
    expect(selectBackend('linux', { ...screen.env, WAYLAND_DISPLAY: 'wayland-0' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('Wayland'),
    });
    expect(selectBackend('freebsd', screen.env)).toMatchObject({ ok: false });
  });
});
