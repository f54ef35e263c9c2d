import os from 'node:os';
import path from 'node:path';

/**
 * Where the agent keeps its queue, pause and status (`--state-dir`, SUNDIAL_AGENT_STATE_DIR,
 * `$XDG_STATE_HOME/sundial-agent`, `~/.local/state/sundial-agent`; `%LOCALAPPDATA%\sundial-agent` on
 * Windows).
 */
export function stateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return path.resolve(flag);
  if (env.SUNDIAL_AGENT_STATE_DIR) return path.resolve(env.SUNDIAL_AGENT_STATE_DIR);
  if (process.platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'sundial-agent');
  return path.join(env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'), 'sundial-agent');
}

/**
 * The file with the server and the device token (`--config`, SUNDIAL_AGENT_CONFIG,
 * `$XDG_CONFIG_HOME/sundial-agent/config.json`, `~/.config/sundial-agent/config.json`;
 * `%APPDATA%\sundial-agent\config.json` on Windows).
 */
export function configFile(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return path.resolve(flag);
  if (env.SUNDIAL_AGENT_CONFIG) return path.resolve(env.SUNDIAL_AGENT_CONFIG);
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'sundial-agent', 'config.json');
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'sundial-agent', 'config.json');
}
