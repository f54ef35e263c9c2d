import { Badge, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { type People, useAssignable } from '../../api';
import { Section } from './Section';
import type { SectionProps } from './sections';

/** The owner, and the members and groups assigned. */
export function PeopleSection({
  workspaceId,
  people,
  ownerEmail,
  value,
  onChange,
  readOnly,
}: SectionProps & { workspaceId: string; people?: People; ownerEmail?: string | null }) {
  const assignable = useAssignable(workspaceId, !readOnly);
  // Options: everyone assignable, plus who is assigned now (all a read-only viewer gets to see).
  const userOptions = new Map((people?.users ?? []).map((u) => [u.id, u.email]));
  for (const u of assignable.data?.users ?? []) userOptions.set(u.id, u.email);
  const groupOptions = new Map((people?.groups ?? []).map((g) => [g.id, g.name]));
  for (const g of assignable.data?.groups ?? []) groupOptions.set(g.id, g.name);

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
          placeholder={readOnly ? undefined : 'Choose members'}
          data={[...userOptions].map(([id, label]) => ({ value: id, label }))}
          value={value.userIds}
          onChange={(userIds) => onChange({ userIds })}
          searchable
          disabled={readOnly}
          nothingFoundMessage="No members"
        />
        <MultiSelect
          label="Assign group"
          placeholder={readOnly ? undefined : groupOptions.size === 0 ? 'No groups yet' : 'Choose groups'}
          data={[...groupOptions].map(([id, label]) => ({ value: id, label }))}
          value={value.groupIds}
          onChange={(groupIds) => onChange({ groupIds })}
          searchable
          disabled={readOnly}
        />
      </Stack>
    </Section>
  );
}
