import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const X_TOOLS = ['Xvfb', 'xdotool', 'xprop', 'xprintidle', 'xmessage', 'xlogo', 'xclock'];

/** Whether this machine has the X tools (scripts/ensure-xvfb.sh installs them). */
export function hasXTools(): boolean {
  return X_TOOLS.every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);
}

export interface VirtualDisplay {
  display: string;
  env: NodeJS.ProcessEnv;
  /** Runs an X tool on this display and answers its output. */
  x(command: string, ...args: string[]): string;
  /** Opens a real window (an X client from Debian) and answers its window id once it is mapped. */
  open(command: string, args: string[], title: string): Promise<string>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Xvfb on a display of its own, with no window manager: the agent then follows the X input focus,
 * which the tests move with xdotool. The display is a random one from :100 up, taken only when this
 * server holds its lock file (Xvfb's -displayfd keeps no lock, and two servers started at once by
 * two test files then both took :0). -noreset: by default Xvfb resets when its last client leaves
 * (the readiness probe), and a window opened meanwhile could not connect.
 */
export async function startXvfb(): Promise<VirtualDisplay> {
  for (let attempt = 1; ; attempt++) {
    const display = `:${100 + Math.floor(Math.random() * 800)}`;
    const server = spawn('Xvfb', [display, '-screen', '0', '800x600x24', '-nolisten', 'tcp', '-noreset'], {
      stdio: 'ignore',
    });
    for (let wait = 0; wait < 100 && server.exitCode === null; wait++) {
      const answers = spawnSync('xprop', ['-root', '-display', display, '_NET_SUPPORTED']).status === 0;
      if (answers && holdsLock(server, display)) return withClients(server, display);
      await sleep(50);
    }
    server.kill();
    if (attempt === 5) throw new Error(`Xvfb did not start on a display of its own (last tried ${display})`);
  }
}

/** Whether `server` is the X server of `display` (its pid in /tmp/.X<n>-lock). */
function holdsLock(server: ChildProcess, display: string): boolean {
  try {
    return Number(readFileSync(`/tmp/.X${display.slice(1)}-lock`, 'utf8').trim()) === server.pid;
  } catch {
    return false;
  }
}

function withClients(server: ChildProcess, display: string): VirtualDisplay {
  const { XDG_SESSION_ID: _session, WAYLAND_DISPLAY: _wayland, ...rest } = process.env;
  const env = { ...rest, DISPLAY: display, XDG_SESSION_TYPE: 'x11' };
  const clients: ChildProcess[] = [];
  const x = (command: string, ...args: string[]) => execFileSync(command, args, { env, encoding: 'utf8' }).trim();
  return {
    display,
    env,
    x,
    async open(command, args, title) {
      const client = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let errors = '';
      client.stderr?.on('data', (chunk) => {
        errors += chunk;
      });
      clients.push(client);
      for (let attempt = 0; attempt < 300; attempt++) {
        const found = spawnSync('xdotool', ['search', '--name', `^${title}$`], { env, encoding: 'utf8' });
        const id = found.stdout.trim().split('\n')[0];
        if (found.status === 0 && id) return id;
        await sleep(50);
      }
      throw new Error(`The window "${title}" did not appear (${command} exit ${client.exitCode}: ${errors.trim()})`);
    },
    async stop() {
      for (const client of clients) client.kill();
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill();
      await exited;
    },
  };
}
