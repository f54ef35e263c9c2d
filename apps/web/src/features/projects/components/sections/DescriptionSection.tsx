import { Box, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { Markdown } from '../Markdown';
import { Section } from './Section';
import type { SectionProps } from './sections';

/** The description, shown as Markdown; its own editor saves it at once (Save description / Cancel). */
export function DescriptionSection({
  value,
  onChange,
  readOnly,
  onSave,
}: SectionProps & { onSave: (description: string) => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value.description);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    try {
      await onSave(draft);
      onChange({ description: draft });
      setEditing(false);
    } finally {
      setSaving(false);
    }
  };
  const edit = (open: boolean) => {
    setDraft(value.description);
    setEditing(open);
  };

  return (
    <Section title="Description">
      {editing ? (
        <Stack gap="xs">
          <Textarea
            aria-label="Description"
            description="Markdown: # heading, - list, **bold**, *italic*, `code`, [link](https://…)"
            autosize
            minRows={3}
            maxRows={12}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
          />
          <Group gap="xs">
            <Button size="xs" loading={saving} onClick={save}>
              Save description
            </Button>
            <Button size="xs" variant="default" onClick={() => edit(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group align="flex-start" wrap="nowrap" justify="space-between">
          <Box data-testid="description" style={{ flex: 1, minWidth: 0 }}>
            {value.description ? (
              <Markdown source={value.description} />
            ) : (
              <Text size="sm" c="dimmed">
                No description yet.
              </Text>
            )}
          </Box>
          {!readOnly && (
            <Button size="xs" variant="subtle" onClick={() => edit(true)}>
              Edit description
            </Button>
          )}
        </Group>
      )}
    </Section>
  );
}
