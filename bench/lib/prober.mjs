// The prober of bench/pglite-stalls.mjs, in a process of its own (forked, with an IPC channel):
// GET /api/v1/me (as the signed-in user), GET /readyz and GET /healthz (no database: the event loop
// alone), each every 50 ms, one call of each at a
// time (a call waiting longer delays the next: a user does not send a thousand requests while one
// waits, and an open loop would ask more of the one connection than it can answer), each timed from
// its send to its last byte. On a message it stops, waits for the calls under way and answers the waits.
const [base, cookie] = process.argv.slice(2);
const waits = { me: [], readyz: [], healthz: [], notReady: 0, failed: 0 };
let stopped = false;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function loop(what, url, headers) {
  while (!stopped) {
    const started = performance.now();
    try {
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (what === 'readyz' && response.status === 503) waits.notReady++;
      else if (response.status !== 200) waits.failed++;
    } catch {
      waits.failed++;
    }
    const waited = performance.now() - started;
    waits[what].push(waited);
    await sleep(Math.max(0, 50 - waited));
  }
}

const loops = [
  loop('me', `${base}/api/v1/me`, { cookie }),
  loop('readyz', `${base}/readyz`, {}),
  loop('healthz', `${base}/healthz`, {}),
];
process.on('message', async () => {
  stopped = true;
  await Promise.all(loops);
  process.send(waits, () => process.exit(0));
});
process.send('ready');
