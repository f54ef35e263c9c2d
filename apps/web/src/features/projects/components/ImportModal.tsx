import { Alert, Button, FileInput, Group, Modal, Progress, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { formatDuration, type ImportPreviewView, type ImportSummaryView } from '@sundial/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, parseApiError } from '../../../api/client';
import { useDurationFormat } from '../../../api/session';

type Source = 'csv' | 'toggl' | 'clockify' | 'harvest';

type Summary = ImportSummaryView;
type Preview = ImportPreviewView;

const HELP: Record<Source, string> = {
  csv: 'A CSV file with the columns Client, Project, Task and, optionally, Parent Task. Sub-tasks can also be written as “Design > Logo” in the Task column. Existing clients, projects and tasks with the same names are reused.',
  toggl:
    'In Toggl Track open Reports → Detailed, choose the period and export it as CSV. Projects, clients, tasks, tags and time entries come across; entries of people who are members here are theirs, the others become yours.',
  clockify:
    'In Clockify open Reports → Detailed, choose the period and Export → Save as CSV. Projects, clients, tasks, tags and time entries come across.',
  harvest:
    'In Harvest open Reports → Detailed time, choose the period and Export → CSV. Harvest keeps hours per day without a start time, so those entries start at 09:00 in your time zone.',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const describe = (s: Summary) =>
  [
    plural(s.clients, 'client'),
    plural(s.projects, 'project'),
    plural(s.tasks, 'task'),
    plural(s.tags, 'tag'),
    plural(s.timeEntries, 'time entry').replace('entrys', 'entries'),
  ].join(', ');

/** Import From CSV and Import From add-ons: choose a file, preview it row by row, import it all at once. */
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
  const [addon, setAddon] = useState<Source>('toggl');
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<Summary | null>(null);
  const source: Source = kind === 'csv' ? 'csv' : addon;
  const path = `/workspaces/${workspaceId}/imports`;

  const read = useMutation({
    mutationFn: (csv: string) => api<Preview>('POST', `${path}/preview`, { source, csv }),
    onSuccess: setPreview,
    onError: (e) => setError(parseApiError(e).message),
  });
  const run = useMutation({
    mutationFn: () => api<Summary>('POST', path, { source, csv: text }),
    onSuccess: async (summary) => {
      setResult(summary);
      await Promise.all(
        [['projects'], ['clients'], ['tags']].map((key) => queryClient.invalidateQueries({ queryKey: key })),
      );
    },
    onError: (e) => setError(parseApiError(e).message),
  });

  const reset = () => {
    setFile(null);
    setText('');
    setPreview(null);
    setError(null);
    setResult(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const choose = async (chosen: File | null) => {
    reset();
    setFile(chosen);
    if (!chosen) return;
    if (chosen.size > 10_000_000) {
      setError('The file is larger than 10 MB.');
      return;
    }
    const content = await chosen.text();
    setText(content);
    read.mutate(content);
  };

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
        {read.isPending && <Progress value={100} animated aria-label="Reading the file" />}
        {preview && !result && (
          <>
            <Text size="sm" data-testid="import-summary">
              {preview.total} rows. Importing creates {describe(preview.summary)}.
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
                            ? `${new Date(r.entry.start).toLocaleString()} · ${formatDuration(r.entry.seconds, durationFormat)}${r.tags.length ? ` · ${r.tags.join(', ')}` : ''}`
                            : ''}
                        </Table.Td>
                      )}
                      <Table.Td c="red">{r.error ?? ''}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {preview.rows.length < preview.total && (
              <Text size="xs" c="dimmed">
                The first {preview.rows.length} rows are shown.
              </Text>
            )}
          </>
        )}
        {run.isPending && <Progress value={100} animated striped aria-label="Importing" />}
        {result && (
          <Alert color="green" role="status">
            Imported: {describe(result)}.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {result ? 'Close' : 'Cancel'}
          </Button>
          {!result && (
            <Button
              disabled={!preview || preview.errorCount > 0}
              loading={run.isPending}
              onClick={() => {
                setError(null);
                run.mutate();
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
