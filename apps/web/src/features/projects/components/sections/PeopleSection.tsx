import { Badge, Group, MultiSelect, Stack, Switch, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
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

/** A person as people know them: their name, or their e-mail when they have given no name. */
export const personLabel = (p: { name?: string | null; email?: string | null }) => p.name?.trim() || p.email || '';

/**
 * The owner, and the members and groups assigned; with `grants`, a "Can manage" toggle per
 * assigned person or group (a Member holding it may edit the project, not its people). People
 * are shown by name, with their e-mail as secondary text.
 */
export function PeopleSection({
  workspaceId,
  people,
  owner,
  grants,
  value,
  onChange,
  readOnly,
}: SectionProps & {
  workspaceId: string;
  people?: People;
  owner?: { name: string | null; email: string | null };
  grants?: boolean;
}) {
  const assignable = useAssignable(workspaceId, !readOnly);
  // Options: everyone assignable, plus who is assigned now (all a read-only viewer gets to see).
  const users = new Map<string, { id: string; name: string; email: string }>();
  for (const u of [...(people?.users ?? []), ...(assignable.data?.users ?? [])]) users.set(u.id, u);
  const groupOptions = new Map((people?.groups ?? []).map((g) => [g.id, g.name]));
  for (const g of assignable.data?.groups ?? []) groupOptions.set(g.id, g.name);
  const guests = new Set((assignable.data?.users ?? []).filter((u) => u.role === 'guest').map((u) => u.id));
  const toggle = (id: string, on: boolean) =>
    onChange({ managerIds: on ? [...value.managerIds, id] : value.managerIds.filter((m) => m !== id) });
  const userLabel = (id: string) => {
    const u = users.get(id);
    return u ? personLabel(u) : id;
  };
  const assigned = [
    ...value.userIds.map((id) => ({ id, label: userLabel(id), guest: guests.has(id) })),
    ...value.groupIds.map((id) => ({ id, label: `Group: ${groupOptions.get(id) ?? id}`, guest: false })),
  ];
  const ownerLabel = owner ? personLabel(owner) : '';

  return (
    <Section title="People">
      <Stack gap="xs">
        {owner && ownerLabel && (
          <Stack gap={0} data-testid="project-owner">
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" truncate title={ownerLabel}>
                {ownerLabel}
              </Text>
              <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                Owner
              </Badge>
            </Group>
            {owner.email && owner.email !== ownerLabel && (
              <Text size="xs" c="dimmed" truncate title={owner.email}>
                {owner.email}
              </Text>
            )}
          </Stack>
        )}
        <MultiSelect
          label="Assign people"
          placeholder={readOnly ? (value.userIds.length === 0 ? 'Nobody assigned' : undefined) : 'Choose members'}
          data={[...users.values()].map((u) => ({ value: u.id, label: personLabel(u) }))}
          renderOption={({ option, checked }) => {
            const email = users.get(option.value)?.email;
            return (
              <Group gap="xs" wrap="nowrap">
                {checked && <IconCheck size={14} aria-hidden="true" style={{ flexShrink: 0 }} />}
                <Stack gap={0}>
                  <Text size="sm">{option.label}</Text>
                  {email && email !== option.label && (
                    <Text size="xs" c="dimmed">
                      {email}
                    </Text>
                  )}
                </Stack>
              </Group>
            );
          }}
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
