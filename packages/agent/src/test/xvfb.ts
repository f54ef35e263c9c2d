import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';

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
 * Xvfb on a display it picks itself (-displayfd: no clash with another test or a desktop), with no
 * window manager: the agent then follows the X input focus, which the tests move with xdotool.
 */
export async function startXvfb(): Promise<VirtualDisplay> {
  // Two servers starting at once may both pick the first free display; the loser is started again.
  for (let attempt = 1; ; attempt++) {
    const started = await tryXvfb();
    const answers = spawnSync('xprop', ['-root', '-display', started.display, '_NET_SUPPORTED']).status === 0;
    if (answers && started.server.exitCode === null) {
      return withClients(started.server, started.display);
    }
    started.server.kill();
    if (attempt === 5) throw new Error(`Xvfb did not answer on ${started.display}`);
  }
}

async function tryXvfb(): Promise<{ server: ChildProcess; display: string }> {
  const server = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '800x600x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    server.stdio[3]?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    server.on('error', reject);
    server.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready`)));
  });
  return { server, display: `:${number}` };
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
