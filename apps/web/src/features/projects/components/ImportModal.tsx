import { Alert, Button, FileInput, Group, Modal, Progress, Radio, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { formatDateTime, formatDuration, type ImportSource, type ImportView, isProjectToolSource } from '@sundial/core';
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, parseApiError, upload } from '../../../api/client';
import { useClockFormat, useDurationFormat } from '../../../api/session';
import { type AssigneeChoices, ImportAssignees, runAssignees } from './ImportAssignees';
import { importTexts as txt } from './import-texts';

type Source = ImportSource;

/** The largest file the server reads (IMPORT_MAX_BYTES). */
const MAX_BYTES = 100_000_000;
/** How often the progress of an import under way is asked for. */
const POLL_MS = 500;
const UNDER_WAY: ImportView['status'][] = ['queued', 'importing'];
const { count, plural } = txt;

/**
 * Import From CSV and Import From add-ons: choose a file (up to 100 MB), which the server reads as
 * it uploads into a preview with the first errors; Import runs in the background, all or nothing,
 * with its progress polled. A project tool's preview also asks who takes the tasks of the people
 * no member matches by e-mail.
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
  const [choices, setChoices] = useState<AssigneeChoices>({});
  const source: Source = kind === 'csv' ? 'csv' : addon;
  const projectTool = isProjectToolSource(source);
  const fileInput = txt.file(source);
  const _path = `/workspaces/${workspaceId}/imports`;

  const send = useMutation({
    mutationFn: (chosen: File) =>
      upload(
        'POST /workspaces/:workspaceId/imports',
        { params: { workspaceId }, query: { source, fileName: chosen.name.slice(0, 255) } },
        chosen,
        // A Trello board's JSON and a monday.com workbook go as bytes (the API's JSON parser is not for files).
        source === 'trello' || source === 'monday' ? 'application/octet-stream' : 'text/csv',
      ),
    onSuccess: setRead,
    onError: (e) => setError(parseApiError(e).message),
  });
  const run = useMutation({
    mutationFn: (view: ImportView) =>
      api('POST /workspaces/:workspaceId/imports/:importId/run', {
        params: { workspaceId, importId: view.id },
        body: { assignees: runAssignees(view.assignees.unmatched, choices) },
      }),
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
    setChoices({});
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
      setError(txt.tooLarge);
      return;
    }
    send.mutate(chosen);
  };
  const preview = current && (current.status === 'ready' || current.status === 'invalid') ? current : null;
  const unmatched = preview?.status === 'ready' ? preview.assignees.unmatched : [];
  const unchosen = unmatched.some((u) => !choices[u.name]);
  const describe = (s: ImportView['summary']) => txt.describe(s, projectTool);

  return (
    <Modal
      opened={kind !== null}
      onClose={close}
      title={kind === 'csv' ? 'Import From CSV' : 'Import From add-ons'}
      size="xl"
    >
      <Stack>
        {kind === 'addons' && (
          <Radio.Group
            aria-label="Add-on"
            value={addon}
            onChange={(v) => {
              setAddon(v as Source);
              reset();
            }}
          >
            <Stack gap="xs">
              {txt.groups.map((g) => (
                <Stack key={g.label} gap={6}>
                  <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                    {g.label}
                  </Text>
                  <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" verticalSpacing={6}>
                    {g.sources.map((value) => (
                      <Radio key={value} value={value} label={txt.labels[value]} />
                    ))}
                  </SimpleGrid>
                </Stack>
              ))}
            </Stack>
          </Radio.Group>
        )}
        <Text size="sm" c="dimmed">
          {txt.help[source]}
        </Text>
        <FileInput
          label={fileInput.label}
          placeholder={fileInput.placeholder}
          accept={fileInput.accept}
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
              {projectTool && txt.assigned(preview.assignees)}
              {preview.errorCount > 0 &&
                ` ${plural(preview.errorCount, 'row')} ${preview.errorCount === 1 ? 'has an error' : 'have errors'}: fix the file and choose it again.`}
            </Text>
            <Table.ScrollContainer minWidth={600} maxHeight={320}>
              <Table striped stickyHeader aria-label="Preview">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Line</Table.Th>
                    {!projectTool && <Table.Th>Client</Table.Th>}
                    <Table.Th>Project</Table.Th>
                    <Table.Th>Task</Table.Th>
                    {projectTool && <Table.Th>{txt.assignee}</Table.Th>}
                    {source !== 'csv' && !projectTool && <Table.Th>Time entry</Table.Th>}
                    <Table.Th>Problem</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.rows.map((r) => (
                    <Table.Tr key={r.line} bg={r.error ? 'var(--mantine-color-red-light)' : undefined}>
                      <Table.Td>{r.line}</Table.Td>
                      {!projectTool && <Table.Td>{r.client ?? ''}</Table.Td>}
                      <Table.Td>{r.project ?? ''}</Table.Td>
                      <Table.Td>{r.taskPath.join(' › ')}</Table.Td>
                      {projectTool && <Table.Td>{r.assignees.join(', ')}</Table.Td>}
                      {source !== 'csv' && !projectTool && (
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
            {unmatched.length > 0 && (
              <ImportAssignees
                workspaceId={workspaceId}
                unmatched={unmatched}
                choices={choices}
                onChange={setChoices}
              />
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
            Imported: {describe(result)}
            {projectTool && current && `, ${plural(current.assignees.assigned, 'task assignment')}`}.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {result || polling ? 'Close' : 'Cancel'}
          </Button>
          {!result && preview?.status === 'ready' && unchosen && (
            <Text size="xs" c="dimmed">
              {txt.mapping.pending}
            </Text>
          )}
          {!result && (
            <Button
              disabled={preview?.status !== 'ready' || unchosen}
              loading={run.isPending || polling}
              onClick={() => {
                setError(null);
                if (preview) run.mutate(preview);
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
