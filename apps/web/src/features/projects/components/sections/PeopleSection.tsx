import { Badge, Group, MultiSelect, Stack, Switch, Text } from '@mantine/core';
import { type People, useAssignable } from '../../api';
import { Section } from './Section';
import type { SectionProps } from './sections';

/** One assigned person or group with its "Can manage" toggle. */
function GrantRow({
  label,
  checked,
  disabledReason,
  onToggle,
}: {
  label: string;
  checked: boolean;
  disabledReason?: string;
  onToggle: (on: boolean) => void;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" data-testid="grant-row">
      <Text size="sm" truncate title={label}>
        {label}
      </Text>
      <Switch
        size="sm"
        label="Can manage"
        aria-label={`${label} can manage`}
        checked={checked}
        onChange={(e) => onToggle(e.currentTarget.checked)}
        disabled={disabledReason !== undefined}
        title={disabledReason}
        styles={{ label: { whiteSpace: 'nowrap' } }}
      />
    </Group>
  );
}

/**
 * The owner, and the members and groups assigned; with `grants`, a "Can manage" toggle per
 * assigned person or group (a Member holding it may edit the project, not its people).
 */
export function PeopleSection({
  workspaceId,
  people,
  ownerEmail,
  grants,
  value,
  onChange,
  readOnly,
}: SectionProps & { workspaceId: string; people?: People; ownerEmail?: string | null; grants?: boolean }) {
  const assignable = useAssignable(workspaceId, !readOnly);
  // Options: everyone assignable, plus who is assigned now (all a read-only viewer gets to see).
  const userOptions = new Map((people?.users ?? []).map((u) => [u.id, u.email]));
  for (const u of assignable.data?.users ?? []) userOptions.set(u.id, u.email);
  const groupOptions = new Map((people?.groups ?? []).map((g) => [g.id, g.name]));
  for (const g of assignable.data?.groups ?? []) groupOptions.set(g.id, g.name);
  const guests = new Set((assignable.data?.users ?? []).filter((u) => u.role === 'guest').map((u) => u.id));
  const toggle = (id: string, on: boolean) =>
    onChange({ managerIds: on ? [...value.managerIds, id] : value.managerIds.filter((m) => m !== id) });
  const assigned = [
    ...value.userIds.map((id) => ({ id, label: userOptions.get(id) ?? id, guest: guests.has(id) })),
    ...value.groupIds.map((id) => ({ id, label: `Group: ${groupOptions.get(id) ?? id}`, guest: false })),
  ];

  return (
    <Section title="People">
      <Stack gap="xs">
        {ownerEmail && (
          <Group gap="xs">
            <Text size="sm">{ownerEmail}</Text>
            <Badge variant="light" size="sm">
              Owner
            </Badge>
          </Group>
        )}
        <MultiSelect
          label="Assign people"
          placeholder={readOnly ? (value.userIds.length === 0 ? 'Nobody assigned' : undefined) : 'Choose members'}
          data={[...userOptions].map(([id, label]) => ({ value: id, label }))}
          value={value.userIds}
          onChange={(userIds) => onChange({ userIds })}
          searchable
          disabled={readOnly}
          nothingFoundMessage="No members"
        />
        <MultiSelect
          label="Assign group"
          placeholder={
            readOnly
              ? value.groupIds.length === 0
                ? 'No group assigned'
                : undefined
              : groupOptions.size === 0
                ? 'No groups yet'
                : 'Choose groups'
          }
          data={[...groupOptions].map(([id, label]) => ({ value: id, label }))}
          value={value.groupIds}
          onChange={(groupIds) => onChange({ groupIds })}
          searchable
          disabled={readOnly}
        />
        {grants && readOnly && value.managerIds.length > 0 && (
          <Group gap={6} aria-label="Who can manage this project" role="group">
            <Text size="sm">Can manage:</Text>
            {assigned
              .filter((a) => value.managerIds.includes(a.id))
              .map((a) => (
                <Badge key={a.id} variant="light" color="teal" size="sm" tt="none" data-testid="grant-badge">
                  {a.label}
                </Badge>
              ))}
          </Group>
        )}
        {grants && !readOnly && assigned.length > 0 && (
          <Stack gap={6} mt={4} aria-label="Who can manage this project" role="group">
            <Text size="xs" c="dimmed">
              Members with "Can manage" may edit this project and its tasks, but not delete it or change its people.
            </Text>
            {assigned.map((a) => (
              <GrantRow
                key={a.id}
                label={a.label}
                checked={value.managerIds.includes(a.id)}
                disabledReason={a.guest ? 'Guests cannot manage projects' : undefined}
                onToggle={(on) => toggle(a.id, on)}
              />
            ))}
          </Stack>
        )}
      </Stack>
    </Section>
  );
}
