import { Badge, Button, Checkbox, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useProjectPicker } from '../../../api/catalog';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { done } from '../../../components/notify';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { type TagList, useSaveTagListRules } from '../api';

/** What the rules of advanced tags are called, in one place. */
export const ruleTexts = {
  title: (list: string) => `Rules of “${list}”`,
  exclusive: 'Pick one: a time entry may carry only one tag of this list',
  only: 'Only on these projects',
  onlyHint: 'Leave empty to allow the tags on every project.',
  required: 'Required on these projects',
  requiredHint: 'Time entries of these projects need a tag of this list.',
  badgeExclusive: 'Pick one',
  badgeOnly: (n: number) => `Only on ${n} ${n === 1 ? 'project' : 'projects'}`,
  badgeRequired: (n: number) => `Required on ${n} ${n === 1 ? 'project' : 'projects'}`,
};

/** The rules a list carries, as small badges beside its name. */
export function TagRuleBadges({ list }: { list: TagList }) {
  return (
    <>
      {list.exclusive && (
        <Badge size="xs" variant="outline">
          {ruleTexts.badgeExclusive}
        </Badge>
      )}
      {list.projectIds.length > 0 && (
        <Badge size="xs" variant="outline">
          {ruleTexts.badgeOnly(list.projectIds.length)}
        </Badge>
      )}
      {list.requiredProjectIds.length > 0 && (
        <Badge size="xs" variant="outline" color="orange">
          {ruleTexts.badgeRequired(list.requiredProjectIds.length)}
        </Badge>
      )}
    </>
  );
}

/** Sets a list's rules (advanced tags, Pro). Without the feature the rules can only be turned off. */
export function TagRulesModal({
  list,
  workspaceId,
  opened,
  onClose,
}: {
  list: TagList;
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { hasFeature } = useWorkspace();
  const projects = useProjectPicker(workspaceId);
  const save = useSaveTagListRules(workspaceId);
  const [exclusive, setExclusive] = useState(list.exclusive);
  const [projectIds, setProjectIds] = useState(list.projectIds);
  const [requiredProjectIds, setRequired] = useState(list.requiredProjectIds);
  const [error, setError] = useState<string | undefined>();
  const data = (projects.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }));
  const submit = async () => {
    setError(undefined);
    try {
      await save.mutateAsync({ id: list.id, exclusive, projectIds, requiredProjectIds });
      done('Rules saved.');
      onClose();
    } catch (e) {
      setError(parseApiError(e).message);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={ruleTexts.title(list.name)} centered size="lg">
      <Stack>
        {!hasFeature('advanced_tags') && <UpgradePrompt feature="advanced_tags" />}
        <Checkbox
          label={ruleTexts.exclusive}
          checked={exclusive}
          onChange={(e) => setExclusive(e.currentTarget.checked)}
        />
        <MultiSelect
          label={ruleTexts.only}
          description={ruleTexts.onlyHint}
          data={data}
          value={projectIds}
          onChange={setProjectIds}
          searchable
          clearable
        />
        <MultiSelect
          label={ruleTexts.required}
          description={ruleTexts.requiredHint}
          data={data}
          value={requiredProjectIds}
          onChange={setRequired}
          searchable
          clearable
        />
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={save.isPending} onClick={submit}>
            Save rules
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
