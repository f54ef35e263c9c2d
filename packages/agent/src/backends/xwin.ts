import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WindowObservation } from '../privacy.js';
import { runTool } from './exec.js';
import type { PlatformBackend, Support } from './types.js';

/** What the agent reads of `@miniben90/x-win`'s `activeWindow()` (v3). */
interface XWinWindow {
  title?: string;
  url?: string;
  info?: { name?: string; execName?: string };
}
interface XWinModule {
  activeWindow(): XWinWindow;
}

const XWIN = '@miniben90/x-win';

/**
 * `@miniben90/x-win` is a native module with prebuilt binaries for macOS and Windows on the npm
 * registry; it is not bundled into sundial-agent.mjs but looked up beside it (`npm install
 * @miniben90/x-win@3` in the agent's folder) or from the current folder.
 */
function loadXWin(): XWinModule | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const base of [here, process.cwd()]) {
    try {
      return createRequire(path.join(base, 'sundial-agent.cjs'))(XWIN) as XWinModule;
    } catch {
      // not installed there
    }
  }
  return null;
}

/** macOS: HIDIdleTime of IOHIDSystem, in nanoseconds. */
async function macIdleSeconds(): Promise<number> {
  const shown = await runTool('ioreg', ['-c', 'IOHIDSystem', '-d', '4', '-r', '-k', 'HIDIdleTime']);
  const ns = /"HIDIdleTime" = (\d+)/.exec(shown.stdout)?.[1];
  if (!ns) throw new Error('ioreg did not answer HIDIdleTime');
  return Number(ns) / 1e9;
}

/** Windows: GetLastInputInfo, printed twice a second by one long-lived PowerShell. */
const WINDOWS_IDLE_SCRIPT = `
Add-Type @'
using System; using System.Runtime.InteropServices;
public static class SundialIdle {
  [StructLayout(LayoutKind.Sequential)] struct LASTINPUTINFO { public uint cbSize; public uint dwTime; }
  [DllImport("user32.dll")] static extern bool GetLastInputInfo(ref LASTINPUTINFO info);
  public static uint Milliseconds() {
    var info = new LASTINPUTINFO(); info.cbSize = (uint)Marshal.SizeOf(info); GetLastInputInfo(ref info);
    return (uint)Environment.TickCount - info.dwTime;
  }
}
'@
while ($true) { [Console]::Out.WriteLine([SundialIdle]::Milliseconds()); [Console]::Out.Flush(); Start-Sleep -Milliseconds 500 }
`;

function windowsIdleReader(): { read(): number; close(): void } {
  let last: number | null = null;
  let child: ChildProcess | null = null;
  const start = () => {
    child = spawn('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', '-'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.stdin?.end(WINDOWS_IDLE_SCRIPT);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const ms = Number(chunk.trim().split(/\s+/).pop());
      if (Number.isFinite(ms)) last = ms;
    });
    child.on('exit', () => {
      child = null;
      last = null;
    });
  };
  return {
    read() {
      if (!child) start();
      if (last === null) throw new Error('No idle time from PowerShell yet');
      return last / 1000;
    },
    close() {
      child?.kill();
    },
  };
}

/**
 * macOS and Windows through `@miniben90/x-win` (the focused window's application, title and, for
 * common browsers, address) and the platform's idle time. Not tested in CI (Linux only); the lock
 * is not read on these platforms yet (null), so a locked screen is away time once idle.
 */
export function createXWinBackend(platform: 'darwin' | 'win32'): PlatformBackend {
  const xwin = loadXWin();
  const windowsIdle = platform === 'win32' ? windowsIdleReader() : null;
  return {
    name: `x-win (${platform})`,
    async supported(): Promise<Support> {
      if (!xwin) {
        return {
          ok: false,
          reason: `${XWIN} is missing: run "npm install ${XWIN}@3" in the folder of sundial-agent.mjs.`,
        };
      }
      try {
        xwin.activeWindow();
      } catch (error) {
        const hint = platform === 'darwin' ? ' Allow the terminal in System Settings > Privacy > Accessibility.' : '';
        return { ok: false, reason: `${XWIN} cannot read the active window: ${(error as Error).message}.${hint}` };
      }
      return { ok: true, reason: `${platform === 'darwin' ? 'macOS' : 'Windows'} through ${XWIN}.` };
    },
    async activeWindow(): Promise<WindowObservation | null> {
      const window = xwin?.activeWindow();
      const app = window?.info?.name || window?.info?.execName;
      if (!window || !app) return null;
      return { app, title: window.title || null, url: window.url || null };
    },
    async idleSeconds(): Promise<number> {
      return windowsIdle ? windowsIdle.read() : macIdleSeconds();
    },
    async isLocked() {
      return null;
    },
    close() {
      windowsIdle?.close();
    },
  };
}
