import { Anchor, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { FEATURE_NAMES, type Feature, featurePlanName } from '@sundial/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useWorkspace } from '../api/session';

/** The words of the prompt, in one place. */
export const upgradeTexts = {
  onPlan: (feature: Feature) => `${FEATURE_NAMES[feature]} is available on the ${featurePlanName(feature)} plan.`,
  keptData: 'Anything saved with it is kept.',
  choose: 'Choose a plan',
  askOwner: 'Ask an owner or admin to upgrade.',
};

/**
 * Shown in place of a feature the workspace's plan does not include (the API refuses it with
 * plan_limit_reached): what it is, the plan that has it, and "Choose a plan" for those who may
 * buy (billing:manage), or to ask an owner or admin for the others. `compact` fits a toolbar.
 */
export function UpgradePrompt({ feature, compact = false }: { feature: Feature; compact?: boolean }) {
  const { can } = useWorkspace();
  const canBuy = can('billing:manage');
  const action = canBuy ? (
    <Anchor component={Link} to="/homepage/billing" fw={600} size="sm">
      {upgradeTexts.choose}
    </Anchor>
  ) : (
    <Text span size="sm" c="dimmed">
      {upgradeTexts.askOwner}
    </Text>
  );
  if (compact) {
    // One line of text that wraps as text does, beside a toolbar's buttons.
    return (
      <Group gap={6} wrap="nowrap" align="flex-start" maw={560} data-testid="upgrade-prompt" data-feature={feature}>
        <IconLock size={16} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
        <Text size="sm">
          {upgradeTexts.onPlan(feature)} {action}
        </Text>
      </Group>
    );
  }
  return (
    <Paper withBorder radius="md" p="md" data-testid="upgrade-prompt" data-feature={feature}>
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" color="yellow" radius="xl">
          <IconLock size={18} aria-hidden="true" />
        </ThemeIcon>
        <Stack gap={4}>
          <Text fw={600}>{upgradeTexts.onPlan(feature)}</Text>
          <Text size="sm" c="dimmed">
            {upgradeTexts.keptData}
          </Text>
          {action}
        </Stack>
      </Group>
    </Paper>
  );
}
