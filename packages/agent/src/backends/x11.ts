import { readFile } from 'node:fs/promises';
import type { WindowObservation } from '../privacy.js';
import { runTool } from './exec.js';
import { createLogindLock } from './logind.js';
import type { PlatformBackend, Support } from './types.js';

const TOOLS = [
  { command: 'xprop', package: 'x11-utils' },
  { command: 'xdotool', package: 'xdotool' },
  { command: 'xprintidle', package: 'xprintidle' },
] as const;

/**
 * Linux on X11 through the X tools of the distribution (Debian: x11-utils, xdotool, xprintidle), no
 * native module: a poll is four or five short processes, about 20 ms of CPU (2 % of one core at one
 * poll a second, agent and tools together, measured on a loaded 2-core machine).
 *
 * The focused window is the window manager's `_NET_ACTIVE_WINDOW` on the root window (every EWMH
 * desktop: GNOME, KDE, Xfce, i3 …); where there is none (no window manager, as under a bare Xvfb, or
 * one without EWMH) it is the X input focus, `xdotool getwindowfocus`, which climbs from the focused
 * subwindow to the top-level window that has a WM_CLASS. The application is WM_CLASS's class part
 * ("Firefox", "Code"), else its instance part, else the process name of `_NET_WM_PID`; a window
 * with none of them is not recorded. The title is `_NET_WM_NAME` (UTF-8) or `WM_NAME`. X does not
 * know a browser's address: `url` is always null here. Idle time is the X screen saver extension's
 * (`xprintidle`); the lock comes from logind.
 */
export function createX11Backend(env: NodeJS.ProcessEnv = process.env): PlatformBackend {
  const x = (command: string, args: string[]) => runTool(command, args, { env });
  const isLocked = createLogindLock(env);

  async function focusedWindow(): Promise<string | null> {
    const root = await x('xprop', ['-root', '-notype', '_NET_ACTIVE_WINDOW']);
    const active = /window id # (0x[0-9a-f]+)|=\s*(0x[0-9a-f]+|\d+)/i.exec(root.stdout);
    const id = active ? Number(active[1] ?? active[2]) : 0;
    if (id > 0) return String(id);
    const focus = await x('xdotool', ['getwindowfocus']);
    const focused = Number(focus.stdout.trim());
    // 0 is None and 1 PointerRoot: nothing has the focus.
    return focus.ok && focused > 1 ? String(focused) : null;
  }

  return {
    name: 'x11',
    async supported(): Promise<Support> {
      if (!env.DISPLAY)
        return { ok: false, reason: 'No X display: DISPLAY is not set. Run the agent inside your desktop session.' };
      for (const tool of TOOLS) {
        const probe = await x(
          tool.command,
          tool.command === 'xprop' ? ['-root', '-notype', '_NET_SUPPORTED'] : ['-version'],
        );
        if (probe.missing) {
          return {
            ok: false,
            reason: `${tool.command} is missing: install it (Debian and Ubuntu: apt install ${tool.package}).`,
          };
        }
      }
      const idle = await x('xprintidle', []);
      if (!idle.ok) {
        return {
          ok: false,
          reason: `Cannot read the X display ${env.DISPLAY} (xprintidle: ${idle.stderr.trim() || 'no answer'}).`,
        };
      }
      const root = await x('xprop', ['-root', '-notype', '_NET_ACTIVE_WINDOW']);
      const how = /_NET_ACTIVE_WINDOW\s*=/.test(root.stdout)
        ? "the window manager's active window"
        : 'the X input focus (no EWMH window manager)';
      return { ok: true, reason: `X11 on ${env.DISPLAY}: the focused window is ${how}; idle time from xprintidle.` };
    },

    async activeWindow(): Promise<WindowObservation | null> {
      const id = await focusedWindow();
      if (!id) return null;
      const [properties, name] = await Promise.all([
        x('xprop', ['-id', id, '-notype', 'WM_CLASS', '_NET_WM_PID']),
        x('xdotool', ['getwindowname', id]),
      ]);
      if (!properties.ok) return null; // the window closed between the two questions
      const wmClass = /WM_CLASS = "((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"/.exec(properties.stdout);
      let app = wmClass?.[2] || wmClass?.[1] || null;
      if (!app) {
        const pid = /_NET_WM_PID = (\d+)/.exec(properties.stdout)?.[1];
        app = pid ? (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim() || null : null;
      }
      if (!app) return null;
      const title = name.ok ? name.stdout.replace(/\n$/, '') : '';
      return { app, title: title || null, url: null };
    },

    async idleSeconds(): Promise<number> {
      const idle = await x('xprintidle', []);
      const ms = Number(idle.stdout.trim());
      if (!idle.ok || !Number.isFinite(ms)) throw new Error(`xprintidle failed: ${idle.stderr.trim() || 'no answer'}`);
      return ms / 1000;
    },

    isLocked,
  };
}
