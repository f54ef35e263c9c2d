import { fork } from 'node:child_process';

/**
 * Starts bench/lib/prober.mjs in a process of its own (GET /api/v1/me as `cookie`'s user, GET
 * /readyz and GET /healthz, each every 50 ms): a prober in the bench's own process would time the bench too, which
 * reads a 90 MB answer meanwhile. `stop()` answers the waits of each, in ms.
 */
export async function startProber(base, cookie) {
  const prober = fork(new URL('./prober.mjs', import.meta.url).pathname, [base, cookie], {
    execArgv: [],
    stdio: 'inherit',
  });
  await new Promise((resolve) => prober.once('message', resolve));
  return {
    stop: () =>
      new Promise((resolve) => {
        prober.once('message', resolve);
        prober.send('stop');
      }),
  };
}
