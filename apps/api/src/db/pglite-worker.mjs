// The embedded database in a worker thread (see pglite-thread.ts, which starts it and sends it
// queries). Plain JavaScript so it runs as is under tsx, vitest and the compiled bundle alike
// (scripts/build-api.mjs copies it beside main.mjs). One message in, one message out per call;
// notifications go out unasked.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs in a worker thread.');

// A dumped data folder to start from, when given (tests start from a migrated one: issue 31).
// One options object: PGlite reads a second argument only after a data folder's name.
const image = workerData?.image ? { loadDataDir: new Blob([fs.readFileSync(workerData.image)]) } : {};
const pglite = new PGlite({ dataDir: workerData?.dataDir, ...image });
/** Open transactions by id: the PGlite transaction and the function that ends it. */
const transactions = new Map();
/** Active LISTENs by id: the function that stops each. */
const listens = new Map();
let nextId = 1;

/**
 * An error as plain data: structured clone keeps an Error's message but drops the fields the app
 * reads from a database error (code, constraint, detail...), so they travel as own properties.
 */
const plainError = (error) => {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { ...fields, name: error.name, message: error.message, stack: error.stack };
};

const ROLLBACK = Symbol('rollback');

async function begin() {
  const id = nextId++;
  let started;
  const ready = new Promise((resolve) => {
    started = resolve;
  });
  let end;
  const ended = new Promise((resolve) => {
    end = resolve;
  });
  // Exclusive, as on the main thread: PGlite runs nothing else until the callback returns.
  const done = pglite.transaction(async (tx) => {
    transactions.set(id, { tx, end });
    started();
    if (!(await ended)) throw ROLLBACK;
  });
  // A failed BEGIN rejects here instead of leaving the caller waiting.
  await Promise.race([ready, done]);
  transactions.get(id).done = done;
  return id;
}

async function end(id, commit) {
  const transaction = transactions.get(id);
  if (!transaction) throw new Error(`No open transaction ${id}.`);
  transactions.delete(id);
  transaction.end(commit);
  try {
    await transaction.done;
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
}

async function query({ sql, params, tx }) {
  const target = tx === undefined ? pglite : transactions.get(tx)?.tx;
  if (!target) throw new Error(`No open transaction ${tx}.`);
  const { rows, affectedRows } = await target.query(sql, params, { rowMode: 'object' });
  return { rows, affectedRows };
}

async function listen(channel) {
  const id = nextId++;
  const stop = await pglite.listen(channel, (payload) => port.postMessage({ notify: id, payload }));
  listens.set(id, stop);
  return id;
}

async function unlisten(id) {
  const stop = listens.get(id);
  listens.delete(id);
  await stop?.();
}

const operations = {
  ready: () => pglite.waitReady,
  query,
  begin: () => begin(),
  end: ({ tx, commit }) => end(tx, commit),
  listen: ({ channel }) => listen(channel),
  unlisten: ({ listen: id }) => unlisten(id),
  close: () => (pglite.closed ? undefined : pglite.close()),
};

port.on('message', async (message) => {
  try {
    const value = await operations[message.op](message);
    port.postMessage({ id: message.id, value });
  } catch (error) {
    port.postMessage({ id: message.id, error: plainError(error) });
  }
});
