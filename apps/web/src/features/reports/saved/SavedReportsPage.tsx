import {
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import type { SavedReportView } from '@sundial/core';
import { IconBookmark, IconLink, IconPencil, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { done, failed } from '../../../components/notify';
import { titleForPath } from '../../../routes';
import { savedReportPath, useDeleteSavedReport, useSavedReports, useUpdateSavedReport } from './api';
import { ShareLinkDialog } from './ShareLinkDialog';
import { st } from './texts';

const nowrap = { whiteSpace: 'nowrap' } as const;

type Dialog = { kind: 'share' | 'rename' | 'delete'; report: SavedReportView } | null;

/** Reports › Saved reports: the viewer's own and the workspace's shared ones; open, rename, share, delete. */
export function SavedReportsPage() {
  const { workspaceId, me } = useWorkspace();
  const list = useSavedReports(workspaceId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  let body: React.ReactNode;
  if (list.error) body = <ErrorPanel message={parseApiError(list.error).message} onRetry={() => list.refetch()} />;
  else if (list.isPending)
    body = (
      <Center py="xl">
        <Loader aria-label={st.listTitle} />
      </Center>
    );
  else if (list.data.items.length === 0)
    body = (
      <Paper withBorder radius="md" p="xl">
        <Stack align="center" gap="xs">
          <IconBookmark size={32} aria-hidden="true" color="var(--mantine-color-dimmed)" />
          <Text fw={600}>{st.empty}</Text>
          <Text c="dimmed" size="sm">
            {st.emptyHint}
          </Text>
          <Button component={Link} to="/homepage/reports/summary" variant="light" mt="xs">
            {st.openSummary}
          </Button>
        </Stack>
      </Paper>
    );
  else
    body = (
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" highlightOnHover aria-label={st.listTitle}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" style={nowrap}>
                  {st.colName}
                </Table.Th>
                <Table.Th scope="col" style={nowrap}>
                  {st.colReport}
                </Table.Th>
                <Table.Th scope="col" style={nowrap}>
                  {st.colShared}
                </Table.Th>
                <Table.Th scope="col" style={nowrap}>
                  {st.colOwner}
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  {st.colActions}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((report) => (
                <Table.Tr key={report.id}>
                  <Table.Td>
                    <Anchor component={Link} to={savedReportPath(report)} fw={600} aria-label={st.open(report.name)}>
                      {report.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{titleForPath(`/homepage/reports/${report.kind}`)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={report.visibility === 'workspace' ? 'teal' : 'gray'}>
                      {st.visibilities[report.visibility]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{report.ownerUserId === me.user.id ? st.you : report.ownerName}</Table.Td>
                  <Table.Td>
                    <Group
                      gap={6}
                      justify="flex-end"
                      wrap="nowrap"
                      aria-label={st.actionsFor(report.name)}
                      role="group"
                    >
                      {report.canEdit && (
                        <>
                          <Button
                            size="xs"
                            variant="light"
                            leftSection={<IconLink size={14} aria-hidden="true" />}
                            onClick={() => setDialog({ kind: 'share', report })}
                          >
                            {st.share}
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            leftSection={<IconPencil size={14} aria-hidden="true" />}
                            onClick={() => setDialog({ kind: 'rename', report })}
                          >
                            {st.rename}
                          </Button>
                        </>
                      )}
                      {report.canDelete && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          leftSection={<IconTrash size={14} aria-hidden="true" />}
                          onClick={() => setDialog({ kind: 'delete', report })}
                        >
                          {st.delete}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    );

  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        {st.listHint}
      </Text>
      {body}
      {dialog?.kind === 'share' && <ShareLinkDialog report={dialog.report} onClose={close} />}
      {dialog?.kind === 'rename' && <RenameDialog report={dialog.report} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteDialog report={dialog.report} onClose={close} />}
    </Stack>
  );
}

function RenameDialog({ report, onClose }: { report: SavedReportView; onClose: () => void }) {
  const { workspaceId } = useWorkspace();
  const update = useUpdateSavedReport(workspaceId);
  const [name, setName] = useState(report.name);
  const error = update.error ? parseApiError(update.error) : null;
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { id: report.id, name },
      {
        onSuccess: () => {
          done(st.renamed);
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={st.renameTitle} centered>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={st.name}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error?.fields.name ?? error?.message}
            maxLength={100}
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {st.cancel}
            </Button>
            <Button type="submit" loading={update.isPending}>
              {st.rename}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteDialog({ report, onClose }: { report: SavedReportView; onClose: () => void }) {
  const { workspaceId } = useWorkspace();
  const remove = useDeleteSavedReport(workspaceId);
  return (
    <Modal opened onClose={onClose} title={st.deleteTitle} centered>
      <Stack gap="md">
        <Text size="sm">{st.deleteBody(report.name)}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {st.cancel}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(report.id, {
                onSuccess: () => {
                  done(st.deleted(report.name));
                  onClose();
                },
                onError: failed,
              })
            }
          >
            {st.delete}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
