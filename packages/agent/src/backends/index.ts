import type { PlatformBackend, Support } from './types.js';
import { createX11Backend } from './x11.js';
import { createXWinBackend } from './xwin.js';

export type { PlatformBackend, Support } from './types.js';

/**
 * The backend for this computer, or why there is none. Linux needs an X11 session: under Wayland the
 * X tools see only the X programs (XWayland) and would misreport the focus, so the agent refuses
 * rather than record wrong time (SUNDIAL_AGENT_BACKEND=x11 insists, for a Wayland desktop whose
 * programs all run on XWayland).
 */
export function selectBackend(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): PlatformBackend | Support {
  if (platform === 'darwin' || platform === 'win32') return createXWinBackend(platform);
  if (platform !== 'linux')
    return { ok: false, reason: `${platform} is not supported (Linux on X11, macOS and Windows are).` };
  const wayland = env.XDG_SESSION_TYPE === 'wayland' || Boolean(env.WAYLAND_DISPLAY);
  if (wayland && env.SUNDIAL_AGENT_BACKEND !== 'x11') {
    return {
      ok: false,
      reason:
        'This is a Wayland session, which the agent cannot watch yet. Log in with an X11 session ("GNOME on Xorg", "Plasma (X11)").',
    };
  }
  return createX11Backend(env);
}
