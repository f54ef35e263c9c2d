import { Alert, Badge, Button, Code, Group, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { type AuditEntryView, formatDateTime } from '@sundial/core';
import { IconDownload, IconHistory, IconShieldCheck } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { useMembers } from '../../../api/team';
import { ListState } from '../../../components/ListState';
import { failed } from '../../../components/notify';
import {
  type AuditFilter,
  auditCsvUrl,
  NO_FILTER,
  useAuditLog,
  useAuditSettings,
  useSaveAuditSettings,
  useVerifyAuditLog,
} from '../api';
import { ACTION_FAMILIES, actionLabel, detailLines, RETENTION_OPTIONS, texts } from '../texts';

const FILTER_KEYS = Object.keys(NO_FILTER) as (keyof AuditFilter)[];

/**
 * TEAM > Audit log (issue 34): what happened in the workspace, who did it and when, newest first;
 * filtered by person, kind of action, object and dates (kept in the address, so an object's own
 * screen links to its history); and a check of the log's hash chain.
 */
export default function AuditLogPage() {
  const { workspaceId, can } = useWorkspace();
  const clock = useClockFormat();
  const [params, setParams] = useSearchParams();
  const filter = Object.fromEntries(FILTER_KEYS.map((key) => [key, params.get(key) ?? ''])) as unknown as AuditFilter;
  const log = useAuditLog(workspaceId, filter);
  const members = useMembers(workspaceId, '');
  const verify = useVerifyAuditLog(workspaceId);
  const filtered = FILTER_KEYS.some((key) => filter[key] !== '');

  const set = (key: keyof AuditFilter, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  if (!can('audit:view')) {
    return (
      <Alert color="blue" maw={640}>
        {texts.notAllowed}
      </Alert>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="Person"
            placeholder="Anyone"
            searchable
            clearable
            w={220}
            value={filter.actorUserId || null}
            onChange={(value) => set('actorUserId', value)}
            data={members.items.map((m) => ({ value: m.userId, label: m.name || m.email }))}
          />
          <Select
            label="Action"
            placeholder="Any action"
            clearable
            w={200}
            value={filter.action || null}
            onChange={(value) => set('action', value)}
            data={ACTION_FAMILIES}
          />
          <TextInput
            label="From"
            type="date"
            w={160}
            value={filter.from}
            onChange={(e) => set('from', e.currentTarget.value)}
          />
          <TextInput
            label="To"
            type="date"
            w={160}
            value={filter.to}
            onChange={(e) => set('to', e.currentTarget.value)}
          />
          {filter.subjectId && (
            <Badge size="lg" variant="light" rightSection={null}>
              One object’s history
            </Badge>
          )}
          {filtered && (
            <Button variant="subtle" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
              Clear filters
            </Button>
          )}
        </Group>
        <Group gap="sm" align="flex-end">
          <Retention workspaceId={workspaceId} editable={can('audit:settings')} />
          <Button
            component="a"
            href={auditCsvUrl(workspaceId, filter)}
            download
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
          >
            Download CSV
          </Button>
          <Button
            variant="light"
            leftSection={<IconShieldCheck size={16} aria-hidden />}
            loading={verify.isPending}
            onClick={() => verify.mutate(undefined, { onError: failed })}
          >
            {texts.verify}
          </Button>
        </Group>
      </Group>

      {verify.data && (
        <Alert
          color={verify.data.ok ? 'green' : 'red'}
          title={verify.data.ok ? 'Intact' : 'The log was tampered with'}
          withCloseButton
          onClose={() => verify.reset()}
        >
          <Stack gap={4}>
            <Text size="sm">{verify.data.ok ? texts.intact(verify.data.checked) : verify.data.broken?.message}</Text>
            {verify.data.prunedThrough > 0 && <Text size="sm">{texts.pruned(verify.data.prunedThrough)}</Text>}
          </Stack>
        </Alert>
      )}

      <ListState
        query={{ ...log, data: log.data ? { items: log.items } : undefined }}
        label="Loading the audit log"
        empty={{
          icon: <IconHistory size={32} aria-hidden />,
          title: texts.empty.title,
          hint: filtered ? texts.empty.filtered : texts.empty.hint,
        }}
      >
        {(items) => (
          <Stack gap="sm">
            {/* On a phone the table scrolls within itself, never the page. */}
            <Table.ScrollContainer minWidth={760}>
              <Table striped highlightOnHover verticalSpacing="xs" data-testid="audit-log">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={190}>When</Table.Th>
                    <Table.Th w={220}>Who</Table.Th>
                    <Table.Th w={220}>What</Table.Th>
                    <Table.Th>Details</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((entry) => (
                    <Row key={entry.id} entry={entry} when={formatDateTime(entry.createdAt, clock)} onObject={set} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {log.hasNextPage && (
              <Group justify="center">
                <Button variant="light" loading={log.isFetchingNextPage} onClick={() => log.fetchNextPage()}>
                  Load more
                </Button>
              </Group>
            )}
          </Stack>
        )}
      </ListState>
    </Stack>
  );
}

/** How long the log keeps its records: the owner chooses; admins read it. */
function Retention({ workspaceId, editable }: { workspaceId: string; editable: boolean }) {
  const settings = useAuditSettings(workspaceId);
  const save = useSaveAuditSettings(workspaceId);
  const value = settings.data ? String(settings.data.retentionDays ?? '') : null;
  return (
    <Tooltip label={texts.retentionHint} multiline w={280} disabled={!editable}>
      <Select
        label={texts.retention}
        w={150}
        allowDeselect={false}
        data={RETENTION_OPTIONS}
        value={value}
        disabled={!editable || !settings.data || save.isPending}
        onChange={(next) => next !== null && save.mutate(next === '' ? null : Number(next), { onError: failed })}
      />
    </Tooltip>
  );
}

function Row({
  entry,
  when,
  onObject,
}: {
  entry: AuditEntryView;
  when: string;
  onObject: (key: 'subjectId', value: string) => void;
}) {
  const detail = detailLines(entry.detail);
  return (
    <Table.Tr data-testid="audit-entry">
      <Table.Td>
        <Text size="sm">{when}</Text>
        {entry.seq === null && (
          <Text size="xs" c="dimmed">
            {texts.unsealed}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{entry.actor ? entry.actor.name || entry.actor.email : texts.system}</Text>
        {entry.actor?.name && (
          <Text size="xs" c="dimmed">
            {entry.actor.email}
          </Text>
        )}
        {entry.apiKey && (
          <Text size="xs" c="dimmed">
            {texts.viaKey(entry.apiKey.name)}
          </Text>
        )}
        {entry.ip && (
          <Text size="xs" c="dimmed" ff="monospace">
            {entry.ip}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {actionLabel(entry.action)}
        </Text>
        {entry.subjectId && (
          <Tooltip label="Show this object’s history">
            <Button
              size="compact-xs"
              variant="subtle"
              px={0}
              onClick={() => onObject('subjectId', entry.subjectId ?? '')}
            >
              History
            </Button>
          </Tooltip>
        )}
      </Table.Td>
      <Table.Td>
        {detail.length > 0 ? (
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {detail.join('\n')}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
