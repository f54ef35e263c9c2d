import { Stack, Switch, Text } from '@mantine/core';
import { useWorkspace } from '../../../api/session';
import { failed } from '../../../components/notify';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { useSetTwoFactorPolicy, useTwoFactorPolicy } from '../security-api';

/** The workspace's "members must use two-factor authentication" (Pro), for owners and admins. */
export function TwoFactorPolicySetting() {
  const { workspace, hasFeature } = useWorkspace();
  const policy = useTwoFactorPolicy(workspace.id);
  const save = useSetTwoFactorPolicy(workspace.id);
  const entitled = hasFeature('two_factor');
  return (
    <Stack gap={6}>
      <Switch
        label="Require two-factor authentication"
        description="Members without it are asked to set it up at their next sign-in."
        checked={policy.data?.required ?? false}
        disabled={!entitled || policy.isLoading || save.isPending}
        onChange={(e) => save.mutate(e.currentTarget.checked, { onError: failed })}
      />
      {!entitled && <UpgradePrompt feature="two_factor" compact />}
      {!entitled && policy.data?.required && (
        <Text size="xs" c="dimmed">
          Not enforced while the workspace is not on Pro.
        </Text>
      )}
    </Stack>
  );
}
