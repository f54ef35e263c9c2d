import { createSavedReportsCrud } from './saved-reports.crud.js';
import { createCsvLinks } from './saved-reports.csv-links.js';
import { createReportLinks } from './saved-reports.links.js';
import { type SavedReportsDeps, savedReportAccess } from './saved-reports.shared.js';

/**
 * Saved reports and their public links. A saved report is its owner's; the owner alone changes
 * it and shares it by link; one shared with the workspace is listed to every member (who then see
 * it with their own access), and owners and admins may delete it and revoke its links. A public
 * link runs the report as its creator with the creator's access of the moment it is viewed: a
 * creator who left or was disabled takes the link down with them, and a lowered role shows less.
 *
 * Put together from its parts: the saved reports themselves (saved-reports.crud.ts), their page
 * links and the public page (saved-reports.links.ts, run by saved-reports.run.ts), and their CSV
 * links (saved-reports.csv-links.ts).
 */
export function createSavedReportsService(deps: SavedReportsDeps) {
  const access = savedReportAccess(deps);
  return {
    ...createSavedReportsCrud(deps, access),
    ...createReportLinks(deps, access),
    ...createCsvLinks(deps, access),
  };
}

export type SavedReportsService = ReturnType<typeof createSavedReportsService>;
