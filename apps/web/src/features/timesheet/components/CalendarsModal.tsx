import { ActionIcon, Alert, Button, Divider, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { formatDateTime } from '@sundial/core';
import { IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat } from '../../../api/session';
import { type Pickers, ProjectTaskSelect, rowLabel } from '../../../components/EntryFields';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { done, failed } from '../../../components/notify';
import {
  useAddCalendarRule,
  useCalendarRules,
  useCalendarSubscriptions,
  useRefreshCalendar,
  useRemoveCalendarRule,
  useSubscribeCalendar,
  useUnsubscribeCalendar,
} from '../calendar-api';
import { t } from '../texts';

/** The person's subscribed calendars (add, read again, remove) and their keyword rules. */
export function CalendarsModal(props: {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  pickers: Pickers | undefined;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t.calendars.title} size="lg">
      <Stack gap="md">
        <Subscriptions workspaceId={props.workspaceId} />
        <Divider />
        <Rules workspaceId={props.workspaceId} pickers={props.pickers} />
      </Stack>
    </Modal>
  );
}

function Subscriptions({ workspaceId }: { workspaceId: string }) {
  const clock = useClockFormat();
  const list = useCalendarSubscriptions(workspaceId);
  const subscribe = useSubscribeCalendar(workspaceId);
  const refresh = useRefreshCalendar(workspaceId);
  const unsubscribe = useUnsubscribeCalendar(workspaceId);
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    subscribe.mutate(
      { url, ...(name.trim() ? { name } : {}) },
      {
        onSuccess: (created) => {
          setUrl('');
          setName('');
          done(t.calendars.subscribed(created.name));
        },
        onError: (error) => {
          const { fields } = parseApiError(error);
          setErrors(fields);
          if (Object.keys(fields).length === 0) failed(error);
        },
      },
    );
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t.calendars.intro}
      </Text>
      {list.error ? (
        <ErrorPanel message={parseApiError(list.error).message} onRetry={() => list.refetch()} />
      ) : list.data?.items.length === 0 ? (
        <Text size="sm">{t.calendars.none}</Text>
      ) : (
        list.data?.items.map((sub) => (
          <Group
            key={sub.id}
            justify="space-between"
            wrap="nowrap"
            align="flex-start"
            data-testid="calendar-subscription"
          >
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} truncate>
                {sub.name}
              </Text>
              <Text size="xs" c="dimmed">
                {sub.host} · {t.calendars.events(sub.eventCount)}
                {sub.refreshedAt ? ` · ${t.calendars.readAt(formatDateTime(sub.refreshedAt, clock))}` : ''}
              </Text>
              {sub.lastError && (
                <Text size="xs" c="red">
                  {t.calendars.failed} {sub.lastError}
                </Text>
              )}
            </div>
            <Group gap={4} wrap="nowrap">
              <Button
                size="xs"
                variant="default"
                loading={refresh.isPending && refresh.variables === sub.id}
                onClick={() =>
                  refresh.mutate(sub.id, {
                    onSuccess: (answer) => (answer.lastError ? undefined : done(t.calendars.refreshed)),
                    onError: failed,
                  })
                }
              >
                {t.calendars.refresh}
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                aria-label={`${t.calendars.remove} ${sub.name}`}
                onClick={() =>
                  unsubscribe.mutate(sub.id, { onSuccess: () => done(t.calendars.removed), onError: failed })
                }
              >
                {t.calendars.remove}
              </Button>
            </Group>
          </Group>
        ))
      )}
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="xs">
          <TextInput
            label={t.calendars.url}
            placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={errors.url}
            required
          />
          <Group align="flex-end">
            <TextInput
              label={t.calendars.name}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
              maxLength={100}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={subscribe.isPending}>
              {t.calendars.subscribe}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function Rules({ workspaceId, pickers }: { workspaceId: string; pickers: Pickers | undefined }) {
  const rules = useCalendarRules(workspaceId);
  const add = useAddCalendarRule(workspaceId);
  const remove = useRemoveCalendarRule(workspaceId);
  const [contains, setContains] = useState('');
  const [choice, setChoice] = useState<{ projectId: string | null; taskId: string | null }>({
    projectId: null,
    taskId: null,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const handleAdd = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    add.mutate(
      { contains, projectId: choice.projectId ?? '', taskId: choice.taskId },
      {
        onSuccess: () => {
          setContains('');
          setChoice({ projectId: null, taskId: null });
        },
        onError: (error) => setErrors(parseApiError(error).fields),
      },
    );
  };
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t.calendars.rules}
      </Title>
      <Text size="sm" c="dimmed">
        {t.calendars.rulesIntro}
      </Text>
      {rules.data?.items.length === 0 && <Text size="sm">{t.calendars.noRules}</Text>}
      {rules.data?.items.map((rule) => (
        <Group key={rule.id} justify="space-between" wrap="nowrap">
          <Text size="sm">
            “{rule.contains}” → {rowLabel(pickers, rule.projectId, rule.taskId)}
          </Text>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t.calendars.removeRule(rule.contains)}
            onClick={() => remove.mutate(rule.id, { onError: failed })}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <form onSubmit={handleAdd} noValidate>
        <Group align="flex-start" wrap="wrap">
          <TextInput
            label={t.calendars.contains}
            value={contains}
            onChange={(e) => setContains(e.currentTarget.value)}
            error={errors.contains}
            maxLength={100}
            w={180}
          />
          <div style={{ flex: 1, minWidth: 200 }}>
            <ProjectTaskSelect label="Project / task" pickers={pickers} {...choice} onChange={setChoice} />
            {(errors.projectId || errors.taskId) && (
              <Text size="xs" c="red">
                {errors.projectId ?? errors.taskId}
              </Text>
            )}
          </div>
          <Button type="submit" variant="light" mt={24} loading={add.isPending}>
            {t.calendars.addRule}
          </Button>
        </Group>
      </form>
      {add.error && Object.keys(errors).length === 0 && <Alert color="red">{parseApiError(add.error).message}</Alert>}
    </Stack>
  );
}
