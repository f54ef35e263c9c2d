import { Select, Stack, Table, Text, Title } from '@mantine/core';
import type { ImportView } from '@sundial/core';
import { useEffect } from 'react';
import { useAssignable } from '../api';
import { importTexts as txt } from './import-texts';

/** The choice for an unmatched person: a member's id, `UNASSIGNED`, or nothing chosen yet (absent). */
export type AssigneeChoices = Record<string, string>;
export const UNASSIGNED = 'unassigned';

/** The choices as the run body: each person chosen for, with a member or null for nobody (the API refuses the rest). */
export const runAssignees = (unmatched: ImportView['assignees']['unmatched'], choices: AssigneeChoices) =>
  unmatched.flatMap((u) => {
    const choice = choices[u.name];
    return choice ? [{ name: u.name, userId: choice === UNASSIGNED ? null : choice }] : [];
  });

/**
 * The mapping step of a project tool's import: each person the file names whom no member matches
 * by e-mail, with the member who takes their tasks or "Leave unassigned". A member whose name is
 * the file's name is proposed (the person still sees and can change it).
 */
export function ImportAssignees({
  workspaceId,
  unmatched,
  choices,
  onChange,
}: {
  workspaceId: string;
  unmatched: ImportView['assignees']['unmatched'];
  choices: AssigneeChoices;
  onChange: (choices: AssigneeChoices) => void;
}) {
  const assignable = useAssignable(workspaceId, true);
  const users = assignable.data?.users;
  // Once the members are known, propose those of the same names (choices made are kept).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the members arrive; later changes are the person's
  useEffect(() => {
    if (users) onChange({ ...proposeChoices(unmatched, users), ...choices });
  }, [users]);
  const data = [
    { value: UNASSIGNED, label: txt.mapping.unassigned },
    ...(users ?? []).map((u) => ({ value: u.id, label: u.name ? `${u.name} (${u.email})` : u.email })),
  ];
  return (
    <Stack gap="xs" data-testid="import-assignees">
      <Title order={4}>{txt.mapping.title}</Title>
      <Text size="sm" c="dimmed">
        {txt.mapping.hint}
      </Text>
      <Table aria-label={txt.mapping.title}>
        <Table.Tbody>
          {unmatched.map((u) => (
            <Table.Tr key={u.name}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {u.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {txt.mapping.tasks(u.tasks)}
                </Text>
              </Table.Td>
              <Table.Td w="55%">
                <Select
                  aria-label={`Member for ${u.name}`}
                  placeholder={txt.mapping.choose}
                  data={data}
                  value={choices[u.name] ?? null}
                  onChange={(value) => {
                    const next = { ...choices };
                    if (value) next[u.name] = value;
                    else delete next[u.name];
                    onChange(next);
                  }}
                  searchable
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** Proposals for the unmatched: the member of the same name (letter case aside), if exactly one. */
export function proposeChoices(
  unmatched: ImportView['assignees']['unmatched'],
  users: { id: string; name: string }[],
): AssigneeChoices {
  const out: AssigneeChoices = {};
  for (const u of unmatched) {
    const same = users.filter((m) => m.name.trim().toLowerCase() === u.name.trim().toLowerCase());
    if (same.length === 1 && same[0]) out[u.name] = same[0].id;
  }
  return out;
}
