import { Box, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Section } from './Section';
import type { SectionProps } from './sections';

/** react-markdown is ~200 KB: it loads only when a description is shown, not with the Projects page. */
const Markdown = lazy(() => import('../Markdown').then((module) => ({ default: module.Markdown })));

/**
 * The description, shown as Markdown. What is typed goes straight into the panel's state, so the
 * panel's Save keeps it too; "Save description" saves it alone at once, Cancel puts back the text
 * from before the editor opened.
 */
export function DescriptionSection({
  value,
  onChange,
  readOnly,
  onSave,
}: SectionProps & { onSave: (description: string) => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [before, setBefore] = useState(value.description);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    try {
      await onSave(value.description);
      setEditing(false);
    } finally {
      setSaving(false);
    }
  };
  const open = () => {
    setBefore(value.description);
    setEditing(true);
  };
  const cancel = () => {
    onChange({ description: before });
    setEditing(false);
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
            value={value.description}
            onChange={(e) => onChange({ description: e.currentTarget.value })}
          />
          <Group gap="xs">
            <Button size="xs" loading={saving} onClick={save}>
              Save description
            </Button>
            <Button size="xs" variant="default" onClick={cancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group align="flex-start" wrap="nowrap" justify="space-between">
          <Box data-testid="description" style={{ flex: 1, minWidth: 0 }}>
            {value.description ? (
              <Suspense
                fallback={
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {value.description}
                  </Text>
                }
              >
                <Markdown source={value.description} />
              </Suspense>
            ) : (
              <Text size="sm" c="dimmed">
                No description yet.
              </Text>
            )}
          </Box>
          {!readOnly && (
            <Button size="xs" variant="subtle" onClick={open}>
              Edit description
            </Button>
          )}
        </Group>
      )}
    </Section>
  );
}
