import { Button, Group, Text } from '@mantine/core';
import { useSuggestion } from '../api';
import { t } from '../texts';

/**
 * While a note is typed and no project is chosen: the project (or task) whose keyword rule
 * matches the note, applied with one click.
 */
export function SuggestionHint(props: {
  workspaceId: string;
  note: string;
  active: boolean;
  onApply: (ref: { projectId: string; taskId: string | null }) => void;
}) {
  const suggestion = useSuggestion(props.workspaceId, props.note, props.active);
  if (!suggestion) return null;
  const label = suggestion.taskName ? `${suggestion.projectName} › ${suggestion.taskName}` : suggestion.projectName;
  return (
    <Group gap={6} mt={6} aria-label={t.suggested}>
      <Text size="sm" c="dimmed">
        {t.suggested}:
      </Text>
      <Button
        size="compact-sm"
        variant="light"
        title={`Matches "${suggestion.keyword}"`}
        onClick={() => props.onApply({ projectId: suggestion.projectId, taskId: suggestion.taskId })}
      >
        {label}
      </Button>
    </Group>
  );
}
