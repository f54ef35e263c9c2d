import { Badge, Button, Paper, Progress, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ExportJobStatus, ExportJobView } from '@sundial/core';
import { type ClockFormat, formatDateTime } from '@sundial/core';
import { IconDownload, IconFileExport } from '@tabler/icons-react';
import { useState } from 'react';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { ListState } from '../../../components/ListState';
import { failed } from '../../../components/notify';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { downloadExportJob, fileSize, useExportJobs } from './api';
import { xt } from './texts';

const nowrap = { whiteSpace: 'nowrap' } as const;
const STATUS_COLORS: Record<ExportJobStatus, string> = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
};
const when = (iso: string | null, clock: ClockFormat) => (iso === null ? '—' : formatDateTime(iso, clock));

/** Recent exports: the viewer's background exports with their progress, and their files while they last. */
export function RecentExportsPage() {
  const { workspaceId, hasFeature } = useWorkspace();
  const list = useExportJobs(workspaceId);

  const body = (
    <ListState
      query={list}
      label={xt.listTitle}
      empty={{
        icon: <IconFileExport size={32} aria-hidden="true" color="var(--mantine-color-dimmed)" />,
        title: xt.empty,
        hint: xt.emptyHint,
        action: { label: xt.openSummary, to: '/homepage/reports/summary' },
      }}
    >
      {(items) => (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={740}>
            <Table verticalSpacing="sm" highlightOnHover aria-label={xt.listTitle}>
              <Table.Thead>
                <Table.Tr>
                  {[xt.colFile, xt.colStatus, xt.colProgress, xt.colSize, xt.colExpires].map((h) => (
                    <Table.Th key={h} scope="col" style={nowrap}>
                      {h}
                    </Table.Th>
                  ))}
                  <Table.Th scope="col">
                    <VisuallyHidden>{xt.download}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((job) => (
                  <JobRow key={job.id} job={job} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </ListState>
  );

  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        {xt.pageHint}
      </Text>
      {/* The list stays; its files download again once the plan has exports. */}
      {!hasFeature('export') && <UpgradePrompt feature="export" />}
      {body}
    </Stack>
  );
}

function JobRow({ job }: { job: ExportJobView }) {
  const clock = useClockFormat();
  const { workspaceId } = useWorkspace();
  const [saving, setSaving] = useState(false);
  const expired = job.status === 'done' && !job.downloadable;
  const name = job.fileName ?? `${xt.kinds[job.kind] ?? job.kind} (${job.format.toUpperCase()})`;

  async function handleDownload() {
    setSaving(true);
    try {
      await downloadExportJob(workspaceId, job);
    } catch (error) {
      failed(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Table.Tr>
      <Table.Td miw={180}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {name}
        </Text>
        <Text size="xs" c="dimmed">
          {xt.started(when(job.createdAt, clock))}
        </Text>
        {job.status === 'failed' && job.error && (
          <Text size="xs" c="red">
            {job.error}
          </Text>
        )}
      </Table.Td>
      <Table.Td style={nowrap}>
        <Badge
          variant="light"
          color={expired ? 'gray' : STATUS_COLORS[job.status]}
          styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
        >
          {expired ? xt.expired : xt.status[job.status]}
        </Badge>
      </Table.Td>
      <Table.Td miw={140}>
        {job.status === 'failed' ? (
          '—'
        ) : (
          <>
            <Progress.Root>
              <Progress.Section
                value={job.percent}
                color={job.status === 'done' ? 'green' : undefined}
                animated={job.status === 'running'}
                aria-label={`${xt.colProgress}: ${name}`}
              />
            </Progress.Root>
            <Text size="xs" c="dimmed" mt={4}>
              {xt.rows(job.rowsDone, job.rowsTotal)} · {job.percent}%
            </Text>
          </>
        )}
      </Table.Td>
      <Table.Td style={nowrap}>{fileSize(job.sizeBytes)}</Table.Td>
      <Table.Td style={nowrap}>{when(job.expiresAt, clock)}</Table.Td>
      <Table.Td style={nowrap}>
        {job.downloadable && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={14} aria-hidden="true" />}
            loading={saving}
            onClick={handleDownload}
            aria-label={`${xt.download} ${name}`}
          >
            {xt.download}
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export default RecentExportsPage;
