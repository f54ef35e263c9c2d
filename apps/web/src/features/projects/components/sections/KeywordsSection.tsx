import { Switch, TagsInput } from '@mantine/core';
import { Section } from './Section';
import type { SectionProps } from './sections';

/** Enable Keyword: notes containing a keyword suggest this project or task. */
export function KeywordsSection({ value, onChange, readOnly }: SectionProps) {
  return (
    <Section title="Keywords">
      <Switch
        label="Enable Keyword"
        checked={value.keywordsEnabled}
        onChange={(e) => onChange({ keywordsEnabled: e.currentTarget.checked })}
        disabled={readOnly}
      />
      {value.keywordsEnabled && (
        <TagsInput
          mt="xs"
          label="Keywords"
          description="A time entry whose note contains one of these suggests this project."
          value={value.keywords}
          onChange={(keywords) => onChange({ keywords })}
          disabled={readOnly}
          clearable
        />
      )}
    </Section>
  );
}
