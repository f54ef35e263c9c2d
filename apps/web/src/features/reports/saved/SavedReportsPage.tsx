import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import type { SavedReportView } from '@sundial/core';
import { IconBookmark, IconLink, IconMail, IconPencil, IconTable, IconTrash } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ListState } from '../../../components/ListState';
import { done, failed } from '../../../components/notify';
import { titleForPath } from '../../../routes';
import { savedReportPath, useDeleteSavedReport, useSavedReports, useUpdateSavedReport } from './api';
import { ScheduleDialog } from './ScheduleDialog';
import { ShareLinkDialog } from './ShareLinkDialog';
import { SheetsLinkDialog } from './SheetsLink';
import { st } from './texts';

const nowrap = { whiteSpace: 'nowrap' } as const;

/** A row's less frequent action as an icon with its name as label and tooltip: labelled buttons for all five overflow 1024 px. */
function RowIcon({
  label,
  color,
  onClick,
  children,
}: {
  label: string;
  color?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon variant="subtle" color={color ?? 'gray'} size="md" aria-label={label} onClick={onClick}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

type Dialog = { kind: 'share' | 'sheets' | 'schedule' | 'rename' | 'delete'; report: SavedReportView } | null;

/** Reports › Saved reports: the viewer's own and the workspace's shared ones; open, rename, share, delete. */
export function SavedReportsPage() {
  const { workspaceId, me, can } = useWorkspace();
  const list = useSavedReports(workspaceId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  const body = (
    <ListState
      query={list}
      label={st.listTitle}
      empty={{
        icon: <IconBookmark size={32} aria-hidden="true" color="var(--mantine-color-dimmed)" />,
        title: st.empty,
        hint: st.emptyHint,
        action: { label: st.openSummary, to: '/homepage/reports/summary' },
      }}
    >
      {(items) => (
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
                {items.map((report) => (
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
                            {can('saved_reports:schedule') && (
                              <RowIcon label={st.schedule} onClick={() => setDialog({ kind: 'schedule', report })}>
                                <IconMail size={16} aria-hidden="true" />
                              </RowIcon>
                            )}
                            <RowIcon label={st.rename} onClick={() => setDialog({ kind: 'rename', report })}>
                              <IconPencil size={16} aria-hidden="true" />
                            </RowIcon>
                          </>
                        )}
                        {(report.canEdit || report.canDelete) && (
                          <RowIcon label={st.sheets} onClick={() => setDialog({ kind: 'sheets', report })}>
                            <IconTable size={16} aria-hidden="true" />
                          </RowIcon>
                        )}
                        {report.canDelete && (
                          <RowIcon label={st.delete} color="red" onClick={() => setDialog({ kind: 'delete', report })}>
                            <IconTrash size={16} aria-hidden="true" />
                          </RowIcon>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
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
        {st.listHint}
      </Text>
      {body}
      {dialog?.kind === 'share' && <ShareLinkDialog report={dialog.report} onClose={close} />}
      {dialog?.kind === 'sheets' && <SheetsLinkDialog report={dialog.report} onClose={close} />}
      {dialog?.kind === 'schedule' && <ScheduleDialog report={dialog.report} onClose={close} />}
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
