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
  owner,
  trackedSeconds,
  onSaveDescription,
  peopleReadOnly,
  grants = false,
  ...section
}: SectionProps & {
  workspaceId: string;
  people?: People;
  /** The project's owner (projects only). */
  owner?: { name: string | null; email: string | null };
  /** Time tracked to the project, to show against an hours budget. */
  trackedSeconds?: number;
  onSaveDescription: (description: string) => Promise<void>;
  /** People may be read-only while the rest is editable (a member holding "Can manage"). */
  peopleReadOnly?: boolean;
  /** Offer the "Can manage" toggles (projects only). */
  grants?: boolean;
}) {
  const { value, onChange, readOnly } = section;
  return (
    <Stack gap="md">
      <PeopleSection
        workspaceId={workspaceId}
        people={people}
        owner={owner}
        grants={grants}
        {...section}
        readOnly={peopleReadOnly ?? readOnly}
      />
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
