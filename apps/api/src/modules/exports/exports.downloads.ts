import { assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { createConcurrencyLimits } from '../../platform/concurrency.js';
import { spool } from '../../platform/spool.js';
import type { ExportFile, ExportOptions, ExportsDeps } from './exports.shared.js';

type Make = (actor: Actor, params: URLSearchParams, options: ExportOptions) => Promise<Omit<ExportFile, 'sizeBytes'>>;

/**
 * How every export is run: on a plan with exports, a download within the caps on those under way,
 * made holding a slot of the database's heavy work and spooled whole before it is handed over.
 */
export function createExportRuns(deps: Pick<ExportsDeps, 'heavy' | 'downloads'>, make: Make) {
  const underWay = createConcurrencyLimits('too_many_exports', 10);
  const downloadRules = (actor: Actor, caps: NonNullable<typeof deps.downloads>) => [
    {
      key: `user:${actor.user.id}`,
      limit: caps.perUser,
      message: `You already have ${caps.perUser} downloads under way. Wait for one to finish, then try again.`,
    },
    {
      key: `workspace:${actor.membership.workspace.id}`,
      limit: caps.perWorkspace,
      message: `This workspace already has ${caps.perWorkspace} downloads under way. Wait a moment, then try again.`,
    },
    {
      key: 'process',
      limit: caps.perProcess,
      message: 'The server is busy with other downloads. Wait a moment, then try again.',
    },
  ];

  return {
    /**
     * The report a query string names, as a file. Throws 403 plan_limit_reached without exports
     * on the plan (Basic), 422 for a bad query, 403 money_forbidden as the report does, 429
     * too_many_exports for a `download` past its caps; a failure while the file is made throws too.
     * `withoutCosts` leaves costs and margins out whatever the actor may see (a public CSV link
     * that does not include them): cost and margin measures are dropped, and Detailed's cost column.
     * The file is made holding a slot of the database's heavy work and written whole to a
     * temporary file before this answers, so no database connection ever waits on its reader
     * (docs/decisions/0016); whoever gets the stream must read or destroy it (it holds a file).
     */
    async export(actor: Actor, params: URLSearchParams, exportOptions: ExportOptions = {}): Promise<ExportFile> {
      assertFeature(actor, 'export');
      const leave =
        exportOptions.download && deps.downloads ? underWay.enter(downloadRules(actor, deps.downloads)) : undefined;
      try {
        const release = deps.heavy ? await deps.heavy.acquire() : () => undefined;
        let file: Omit<ExportFile, 'sizeBytes'>;
        let spooled: Awaited<ReturnType<typeof spool>>;
        try {
          file = await make(actor, params, exportOptions);
          spooled = await spool(file.stream);
        } finally {
          release();
        }
        // Under way until its last byte is read, or until it is given up.
        if (leave) for (const done of ['end', 'close']) spooled.stream.once(done, leave);
        return { ...file, stream: spooled.stream, sizeBytes: spooled.sizeBytes };
      } catch (error) {
        leave?.();
        throw error;
      }
    },
  };
}
