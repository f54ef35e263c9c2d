import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ExportFormat, type ExportKind, toReportParams } from '@sundial/core';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { download, parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { t } from '../texts';
import type { ParamPatch } from '../url';

/** What the Export menu downloads: the report on screen (its kind and query) and its name. */
export interface ReportExport {
  kind: ExportKind;
  query: ParamPatch;
  title: string;
}

const FORMATS: ExportFormat[] = ['csv', 'xlsx', 'pdf'];

/** Export (CSV, Excel, PDF) of the report as it stands: the same filters, groupings and figures. */
export function ExportMenu({ report }: { report: ReportExport }) {
  const { workspaceId } = useWorkspace();
  const [busy, setBusy] = useState<ExportFormat | null>(null);

  async function handleExport(format: ExportFormat) {
    setBusy(format);
    const params = toReportParams({
      ...report.query,
      kind: report.kind,
      format,
      title: report.title,
      // A byte-order mark, so Excel opens the CSV as UTF-8 (names with accents stay right).
      ...(format === 'csv' ? { bom: true } : {}),
    });
    try {
      await download(`/workspaces/${workspaceId}/reports/export?${params}`, `${report.kind}.${format}`);
    } catch (error) {
      notifications.show({ color: 'red', title: t.exports.failed, message: parseApiError(error).message });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          rightSection={<IconChevronDown size={14} aria-hidden="true" />}
          loading={busy !== null}
        >
          {t.exports.button}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {FORMATS.map((format) => (
          <Menu.Item key={format} onClick={() => handleExport(format)} disabled={busy !== null}>
            {t.exports.formats[format]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
