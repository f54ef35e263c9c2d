import type { ExportJobStatus } from '@sundial/core';

/** The words of background exports and the Recent exports page. */
export const xt = {
  pageHint: 'Large reports export in the background. Files can be downloaded for 24 hours, then they are removed.',
  listTitle: 'Recent exports',
  empty: 'No exports yet',
  emptyHint:
    'When a report is too large to download at once, its export runs here and you get an e-mail when it is ready.',
  openSummary: 'Open the Summary report',
  colFile: 'File',
  colStatus: 'Status',
  colProgress: 'Progress',
  colSize: 'Size',
  started: (when: string) => `Started ${when}`,
  colExpires: 'Expires',
  download: 'Download',
  expired: 'Expired',
  status: { queued: 'Queued', running: 'Running', done: 'Ready', failed: 'Failed' } satisfies Record<
    ExportJobStatus,
    string
  >,
  rows: (done: number, total: number | null) =>
    total === null ? `${done.toLocaleString()} rows` : `${done.toLocaleString()} of ${total.toLocaleString()} rows`,
  kinds: { summary: 'Summary', detailed: 'Detailed', matrix: 'Matrix' } as Record<string, string>,
  dialogTitle: 'Exporting in the background',
  dialogLarge:
    'This report is too large to download at once, so it is being exported in the background. You can close this window: you will get an e-mail when the file is ready.',
  dialogReady: 'Your file is ready.',
  dialogFailed: 'The export failed.',
  seeRecent: 'Recent exports',
  close: 'Close',
  recentMenu: 'Recent exports',
  startFailed: 'The export could not be started',
};
