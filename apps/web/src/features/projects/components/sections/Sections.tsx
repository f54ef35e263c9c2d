import { Checkbox, Stack } from '@mantine/core';
import type { People } from '../../api';
import { BudgetSection } from './BudgetSection';
import { DescriptionSection } from './DescriptionSection';
import { KeywordsSection } from './KeywordsSection';
import { PeopleSection } from './PeopleSection';
import type { SectionProps } from './sections';

/** People, Description, Budget, billable default and Enable Keyword: shared by project and task panels. */
export function Sections({
  workspaceId,
  people,
  ownerEmail,
  trackedSeconds,
  onSaveDescription,
  ...section
}: SectionProps & {
  workspaceId: string;
  people?: People;
  ownerEmail?: string | null;
  /** Time tracked to the project, to show against an hours budget. */
  trackedSeconds?: number;
  onSaveDescription: (description: string) => Promise<void>;
}) {
  const { value, onChange, readOnly } = section;
  return (
    <Stack gap="md">
      <PeopleSection workspaceId={workspaceId} people={people} ownerEmail={ownerEmail} {...section} />
      <DescriptionSection onSave={onSaveDescription} {...section} />
      <BudgetSection trackedSeconds={trackedSeconds} {...section} />
      <Checkbox
        label="Time from this task is billable by default"
        checked={value.billableDefault}
        onChange={(e) => onChange({ billableDefault: e.currentTarget.checked })}
        disabled={readOnly}
      />
      <KeywordsSection {...section} />
    </Stack>
  );
}
