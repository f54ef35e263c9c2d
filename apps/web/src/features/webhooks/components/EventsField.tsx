import { Checkbox, Input, Paper, ScrollArea, SimpleGrid, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { EVENT_FAMILIES, texts } from '../texts';

/**
 * The events a webhook subscribes to: "All events" (`*`), or event types chosen one by one, grouped
 * by what they are about, each family with a checkbox that takes all of it.
 */
export function EventsField({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (events: string[]) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const all = value.includes('*');
  const toggle = (types: string[], on: boolean) =>
    onChange(on ? [...new Set([...value, ...types])] : value.filter((type) => !types.includes(type)));

  return (
    <Stack gap={6} role="group" aria-labelledby={`${id}-label`} aria-describedby={error ? `${id}-error` : undefined}>
      <Input.Label id={`${id}-label`} labelElement="div" required mb={0}>
        Events
      </Input.Label>
      <Checkbox
        label={texts.allEvents}
        description={texts.allEventsHint}
        checked={all}
        onChange={(e) => onChange(e.currentTarget.checked ? ['*'] : [])}
      />
      {!all && (
        <Paper withBorder radius="sm">
          {/* Short enough that the dialog's buttons stay in view on a 720px-high screen. */}
          <ScrollArea.Autosize mah={240} type="auto">
            <Stack gap="md" p="sm">
              {EVENT_FAMILIES.map((family) => {
                const types = family.events.map((e) => e.type);
                const chosen = types.filter((type) => value.includes(type)).length;
                return (
                  <Stack key={family.key} gap={6}>
                    <Checkbox
                      label={
                        <Text size="sm" fw={600} span>
                          {family.label}
                        </Text>
                      }
                      aria-label={family.label}
                      checked={chosen === types.length}
                      indeterminate={chosen > 0 && chosen < types.length}
                      onChange={(e) => toggle(types, e.currentTarget.checked)}
                    />
                    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={6} pl="lg">
                      {family.events.map((event) => (
                        <Checkbox
                          key={event.type}
                          size="xs"
                          label={event.type}
                          description={event.description}
                          checked={value.includes(event.type)}
                          onChange={(e) => toggle([event.type], e.currentTarget.checked)}
                        />
                      ))}
                    </SimpleGrid>
                  </Stack>
                );
              })}
            </Stack>
          </ScrollArea.Autosize>
        </Paper>
      )}
      {error && <Input.Error id={`${id}-error`}>{error}</Input.Error>}
    </Stack>
  );
}
