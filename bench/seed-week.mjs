// A workspace at a busy team's size for one screen: 1,000 projects (every tenth with two tasks) and
// 1,000 entries in one user's last week (Monday to Sunday, UTC: entries may not lie in the future), all created through the API of
// a running server, as the app would. Prints the account and the counts as JSON.
// Usage: npm run bench:seed-week -- [origin]   (default http://localhost:3000)
// Imported by bench/daylist.mjs, which starts a throw-away server and seeds it.
import { pathToFileURL } from 'node:url';

export const PASSWORD = 'Sunny-days-2026!';

/** Runs `task` over `items` with at most `width` requests in flight. */
async function inParallel(items, width, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/** Monday 00:00 UTC of the week before the one holding `now`. */
export function lastMonday(now = new Date()) {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7) - 7);
  return day;
}

/**
 * Signs up a new owner on `origin` and fills their workspace. Entries are 9 minutes each, ten
 * minutes apart, 143 a day from 00:05 UTC, round-robin over the projects that have tasks.
 */
export async function seedWeek({ origin, projects = 1000, entries = 1000, width = 6, log = () => {} }) {
  const email = `week.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.org`;
  const signup = await fetch(`${origin}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
  const cookie = signup.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const call = async (method, url, body) => {
    const response = await fetch(`${origin}${url}`, {
      method,
      headers: { cookie, origin, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? null : response.json();
  };
  const me = await call('GET', '/api/v1/me');
  const ws = `/api/v1/workspaces/${me.currentWorkspaceId}`;

  const started = Date.now();
  const made = await inParallel(
    Array.from({ length: projects }, (_, i) => i),
    width,
    (i) => call('POST', `${ws}/projects`, { name: `Project ${String(i + 1).padStart(4, '0')}` }),
  );
  log(`${projects} projects in ${Date.now() - started} ms`);
  const withTasks = made.filter((_, i) => i % 10 === 0);
  const tasks = (
    await inParallel(
      withTasks.flatMap((p) => [0, 1].map((n) => ({ p, n }))),
      width,
      ({ p, n }) => call('POST', `${ws}/projects/${p.id}/tasks`, { name: n === 0 ? 'Design' : 'Build' }),
    )
  ).map((task) => task.id ?? task.task?.id);
  log(`${tasks.length} tasks`);

  const monday = lastMonday().getTime();
  const t0 = Date.now();
  await inParallel(
    Array.from({ length: entries }, (_, i) => i),
    width,
    (i) => {
      const start = monday + (i % 7) * 86_400_000 + 300_000 + Math.floor(i / 7) * 600_000;
      const project = withTasks[i % withTasks.length];
      const taskId = i % 3 === 0 ? tasks[(i % withTasks.length) * 2] : undefined;
      return call('POST', `${ws}/time-entries`, {
        start: new Date(start).toISOString(),
        end: new Date(start + 540_000).toISOString(),
        note: `Entry ${i + 1}`,
        projectId: project.id,
        ...(taskId ? { taskId } : {}),
      });
    },
  );
  log(`${entries} entries in ${Date.now() - t0} ms`);
  return { email, password: PASSWORD, workspaceId: me.currentWorkspaceId, projects, tasks: tasks.length, entries };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const origin = process.argv[2] ?? 'http://localhost:3000';
  console.log(JSON.stringify(await seedWeek({ origin, log: (m) => console.error(m) })));
}
