import { Checkbox, TextInput } from '@mantine/core';
import type { parseApiError } from '../../../api/client';
import { st } from './texts';

/** "Include costs" on a page or CSV link, for those who may share costs (the caller checks). */
export function IncludeCostsCheckbox({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <Checkbox
      label={st.includeCosts}
      description={st.includeCostsHint}
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
      maw={280}
    />
  );
}

/** A saved report's name, with the API's refusal under it (the name's own, or the whole answer's). */
export function ReportNameInput({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (name: string) => void;
  error: ReturnType<typeof parseApiError> | null;
}) {
  return (
    <TextInput
      label={st.name}
      placeholder={st.namePlaceholder}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error?.fields.name ?? (error && !error.fields.name ? error.message : undefined)}
      maxLength={100}
      required
      data-autofocus
    />
  );
}
