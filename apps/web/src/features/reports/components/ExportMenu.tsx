import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  EXPORT_DIRECT_MAX_ROWS,
  type ExportFormat,
  type ExportKind,
  isReportKind,
  toReportParams,
} from '@sundial/core';
import { IconChevronDown, IconDownload, IconHistory, IconTable } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { download, parseApiError } from '../../../api/client';
import type { ParamPatch } from '../../../api/reports';
import { useWorkspace } from '../../../api/session';
import { useStartExportJob } from '../exports/api';
import { ExportJobDialog } from '../exports/ExportJobDialog';
import { xt } from '../exports/texts';
import { SheetsExportDialog } from '../saved/SheetsLink';
import { st } from '../saved/texts';
import { t } from '../texts';

/** What the Export menu downloads: the report on screen (its kind and query) and its name. */
export interface ReportExport {
  kind: ExportKind;
  query: ParamPatch;
  title: string;
  /** How many rows the report has, when the page knows: above EXPORT_DIRECT_MAX_ROWS it exports in the background at once. */
  rows?: number | undefined;
}

const FORMATS: ExportFormat[] = ['csv', 'xlsx', 'pdf'];

/**
 * Export (CSV, Excel, PDF) of the report as it stands: the same filters, groupings and figures.
 * A report too large to download at once (the API answers export_too_large) is exported in the
 * background instead, with its progress shown until the file is ready.
 */
export function ExportMenu({ report }: { report: ReportExport }) {
  const { workspaceId } = useWorkspace();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [received, setReceived] = useState(0);
  const [sheets, setSheets] = useState(false);
  // Google Sheets reads a saved report: only pages one can save offer it.
  const { pathname } = useLocation();
  const saveable = isReportKind(pathname.replace(/\/$/, '').split('/').pop() ?? '');
  const [jobId, setJobId] = useState<string | null>(null);
  const startJob = useStartExportJob(workspaceId);

  async function handleExport(format: ExportFormat) {
    setBusy(format);
    setReceived(0);
    const params = toReportParams({
      ...report.query,
      kind: report.kind,
      format,
      title: report.title,
      // A byte-order mark, so Excel opens the CSV as UTF-8 (names with accents stay right).
      ...(format === 'csv' ? { bom: true } : {}),
    });
    try {
      // A report the page knows is too large to download at once goes to the background straight
      // away; otherwise the download's bytes show as they arrive.
      if (report.rows !== undefined && report.rows > EXPORT_DIRECT_MAX_ROWS) await handleStartJob(params, format);
      else
        await download(
          'GET /workspaces/:workspaceId/reports/export',
          { params: { workspaceId }, query: params },
          `${report.kind}.${format}`,
          setReceived,
        );
    } catch (error) {
      if (parseApiError(error).code === 'export_too_large') await handleStartJob(params, format);
      else notifications.show({ color: 'red', title: t.exports.failed, message: parseApiError(error).message });
    } finally {
      setBusy(null);
    }
  }

  async function handleStartJob(params: URLSearchParams, format: ExportFormat) {
    params.delete('format');
    try {
      const job = await startJob.mutateAsync({ query: params.toString(), format, key: crypto.randomUUID() });
      setJobId(job.id);
    } catch (error) {
      notifications.show({ color: 'red', title: xt.startFailed, message: parseApiError(error).message });
    }
  }

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            rightSection={<IconChevronDown size={14} aria-hidden="true" />}
            loading={busy !== null && received === 0}
            disabled={busy !== null}
          >
            {busy !== null && received > 0 ? t.exports.receiving(received) : t.exports.button}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {FORMATS.map((format) => (
            <Menu.Item key={format} onClick={() => handleExport(format)} disabled={busy !== null}>
              {t.exports.formats[format]}
            </Menu.Item>
          ))}
          {saveable && (
            <Menu.Item leftSection={<IconTable size={16} aria-hidden="true" />} onClick={() => setSheets(true)}>
              {st.sheets}…
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item component={Link} to="/homepage/exports" leftSection={<IconHistory size={14} aria-hidden="true" />}>
            {xt.recentMenu}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {sheets && <SheetsExportDialog onClose={() => setSheets(false)} />}
      {jobId && <ExportJobDialog jobId={jobId} onClose={() => setJobId(null)} />}
    </>
  );
}
