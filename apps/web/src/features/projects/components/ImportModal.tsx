import { Alert, Button, FileInput, Group, Modal, Progress, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { formatDateTime, formatDuration, type ImportSummaryView, type ImportView } from '@sundial/core';
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, parseApiError, upload } from '../../../api/client';
import { useClockFormat, useDurationFormat } from '../../../api/session';

type Source = 'csv' | 'toggl' | 'clockify' | 'harvest';

type Summary = ImportSummaryView;

/** The largest file the server reads (IMPORT_MAX_BYTES). */
const MAX_BYTES = 100_000_000;
/** How often the progress of an import under way is asked for. */
const POLL_MS = 500;
const UNDER_WAY: ImportView['status'][] = ['queued', 'importing'];
const count = (n: number) => n.toLocaleString('en-US');

const HELP: Record<Source, string> = {
  csv: 'A CSV file with the columns Client, Project, Task and, optionally, Parent Task. Sub-tasks can also be written as “Design > Logo” in the Task column. Existing clients, projects and tasks with the same names are reused.',
  toggl:
    'In Toggl Track open Reports → Detailed, choose the period and export it as CSV. Projects, clients, tasks, tags and time entries come across; entries of people who are members here are theirs, the others become yours.',
  clockify:
    'In Clockify open Reports → Detailed, choose the period and Export → Save as CSV. Projects, clients, tasks, tags and time entries come across.',
  harvest:
    'In Harvest open Reports → Detailed time, choose the period and Export → CSV. Harvest keeps hours per day without a start time, so those entries start at 09:00 in your time zone.',
};

const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
const describe = (s: Summary) =>
  [
    plural(s.clients, 'client'),
    plural(s.projects, 'project'),
    plural(s.tasks, 'task'),
    plural(s.tags, 'tag'),
    plural(s.timeEntries, 'time entry').replace('entrys', 'entries'),
  ].join(', ');

/**
 * Import From CSV and Import From add-ons: choose a file (up to 100 MB), which the server reads as
 * it uploads into a preview with the first errors; Import runs in the background, all or nothing,
 * with its progress polled.
 */
export function ImportModal({
  kind,
  workspaceId,
  onClose,
}: {
  kind: 'csv' | 'addons' | null;
  workspaceId: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const durationFormat = useDurationFormat();
  const clock = useClockFormat();
  const [addon, setAddon] = useState<Source>('toggl');
  const [file, setFile] = useState<File | null>(null);
  const [read, setRead] = useState<ImportView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const source: Source = kind === 'csv' ? 'csv' : addon;
  const _path = `/workspaces/${workspaceId}/imports`;

  const send = useMutation({
    mutationFn: (chosen: File) =>
      upload('POST /workspaces/:workspaceId/imports', { params: { workspaceId }, query: { source } }, chosen),
    onSuccess: setRead,
    onError: (e) => setError(parseApiError(e).message),
  });
  const run = useMutation({
    mutationFn: (id: string) =>
      api('POST /workspaces/:workspaceId/imports/:importId/run', { params: { workspaceId, importId: id }, body: {} }),
    onSuccess: setRead,
    onError: (e) => setError(parseApiError(e).message),
  });
  const polling = read !== null && UNDER_WAY.includes(read.status);
  const progress = useQuery({
    queryKey: ['imports', read?.id],
    queryFn:
      polling && read
        ? () => api('GET /workspaces/:workspaceId/imports/:importId', { params: { workspaceId, importId: read.id } })
        : skipToken,
    refetchInterval: POLL_MS,
  });
  const current = (polling && progress.data) || read;
  const result = current?.status === 'done' ? current.summary : null;
  const failed = current?.status === 'failed' ? current.message : null;

  useEffect(() => {
    if (progress.data && !UNDER_WAY.includes(progress.data.status)) setRead(progress.data);
  }, [progress.data]);
  useEffect(() => {
    if (result) {
      for (const key of [['projects'], ['clients'], ['tags'], ['time']]) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
    }
  }, [result, queryClient]);

  const reset = () => {
    setFile(null);
    setRead(null);
    setError(null);
    send.reset();
    run.reset();
  };
  const close = () => {
    reset();
    onClose();
  };
  const choose = (chosen: File | null) => {
    reset();
    setFile(chosen);
    if (!chosen) return;
    if (chosen.size > MAX_BYTES) {
      setError('The file is larger than 100 MB; split it.');
      return;
    }
    send.mutate(chosen);
  };
  const preview = current && (current.status === 'ready' || current.status === 'invalid') ? current : null;

  return (
    <Modal
      opened={kind !== null}
      onClose={close}
      title={kind === 'csv' ? 'Import From CSV' : 'Import From add-ons'}
      size="xl"
    >
      <Stack>
        {kind === 'addons' && (
          <SegmentedControl
            aria-label="Add-on"
            value={addon}
            onChange={(v) => {
              setAddon(v as Source);
              reset();
            }}
            data={[
              { value: 'toggl', label: 'Toggl Track' },
              { value: 'clockify', label: 'Clockify' },
              { value: 'harvest', label: 'Harvest' },
            ]}
          />
        )}
        <Text size="sm" c="dimmed">
          {HELP[source]}
        </Text>
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={choose}
          clearable
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {send.isPending && (
          <Stack gap={4}>
            <Progress value={100} animated aria-label="Reading the file" />
            <Text size="xs" c="dimmed">
              Uploading and reading {file?.name} ({((file?.size ?? 0) / 1_000_000).toFixed(1)} MB)…
            </Text>
          </Stack>
        )}
        {preview && (
          <>
            <Text size="sm" data-testid="import-summary">
              {count(preview.rowsRead)} rows. Importing creates {describe(preview.summary)}.
              {preview.errorCount > 0 &&
                ` ${plural(preview.errorCount, 'row')} ${preview.errorCount === 1 ? 'has an error' : 'have errors'}: fix the file and choose it again.`}
            </Text>
            <Table.ScrollContainer minWidth={600} maxHeight={320}>
              <Table striped stickyHeader aria-label="Preview">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Line</Table.Th>
                    <Table.Th>Client</Table.Th>
                    <Table.Th>Project</Table.Th>
                    <Table.Th>Task</Table.Th>
                    {source !== 'csv' && <Table.Th>Time entry</Table.Th>}
                    <Table.Th>Problem</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.rows.map((r) => (
                    <Table.Tr key={r.line} bg={r.error ? 'var(--mantine-color-red-light)' : undefined}>
                      <Table.Td>{r.line}</Table.Td>
                      <Table.Td>{r.client ?? ''}</Table.Td>
                      <Table.Td>{r.project ?? ''}</Table.Td>
                      <Table.Td>{r.taskPath.join(' › ')}</Table.Td>
                      {source !== 'csv' && (
                        <Table.Td>
                          {r.entry
                            ? `${formatDateTime(r.entry.start, clock)} · ${formatDuration(r.entry.seconds, durationFormat)}${r.tags.length ? ` · ${r.tags.join(', ')}` : ''}`
                            : ''}
                        </Table.Td>
                      )}
                      <Table.Td c="red">{r.error ?? ''}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {preview.rows.length < preview.rowsRead && (
              <Text size="xs" c="dimmed">
                {preview.errorCount > 0
                  ? `The first rows and the first ${preview.rows.filter((r) => r.error).length} rows with errors are shown.`
                  : `The first ${preview.rows.length} rows are shown.`}
              </Text>
            )}
          </>
        )}
        {current && UNDER_WAY.includes(current.status) && (
          <Stack gap={4} data-testid="import-progress">
            <Progress
              value={current.rowsRead > 0 ? (100 * current.rowsImported) / current.rowsRead : 0}
              animated
              striped
              aria-label="Importing"
            />
            <Text size="xs" c="dimmed">
              {current.status === 'queued'
                ? 'Waiting to start…'
                : `Imported ${count(current.rowsImported)} of ${count(current.rowsRead)} rows…`}{' '}
              You can close this window; the import goes on.
            </Text>
          </Stack>
        )}
        {failed && (
          <Alert color="red" role="alert">
            {failed}
          </Alert>
        )}
        {result && (
          <Alert color="green" role="status">
            Imported: {describe(result)}.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {result || polling ? 'Close' : 'Cancel'}
          </Button>
          {!result && (
            <Button
              disabled={preview?.status !== 'ready'}
              loading={run.isPending || polling}
              onClick={() => {
                setError(null);
                if (preview) run.mutate(preview.id);
              }}
            >
              Import
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
