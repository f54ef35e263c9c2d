import { Alert, Anchor } from '@mantine/core';
import { can } from '@sundial/core';
import { Link } from 'react-router';
import type { WorkspaceView } from '../api/session';

/**
 * The real days left of the workspace's Pro trial, or the news that it has ended. Only those who
 * may buy (billing:manage) are offered a plan; everyone else just sees where the trial stands.
 * Nothing shows when billing is off.
 */
export function TrialBanner({ workspace }: { workspace: WorkspaceView }) {
  // A self-hosted Sundial (BILLING=off) sells nothing: no trial, no banner.
  if (!workspace.billing || workspace.purchasedPlan !== 'free') return null;
  const canBuy = can(workspace.role, 'billing:manage');
  if (workspace.trialDaysLeft > 0) {
    const days = workspace.trialDaysLeft === 1 ? '1 day' : `${workspace.trialDaysLeft} days`;
    return (
      <Alert color="yellow" radius={0} py={8} data-testid="trial-banner">
        {canBuy ? `You have ${days} left on your pro trial.` : `This workspace has ${days} left on its Pro trial.`}
        {canBuy && (
          <>
            {' '}
            <Anchor component={Link} to="/homepage/billing" fw={600}>
              Choose a plan
            </Anchor>
          </>
        )}
      </Alert>
    );
  }
  return (
    <Alert color="gray" radius={0} py={8} data-testid="trial-banner">
      Your Pro trial has ended and this workspace is on the Free plan. Your data is kept.
      {canBuy && (
        <>
          {' '}
          <Anchor component={Link} to="/homepage/billing" fw={600}>
            Upgrade
          </Anchor>
        </>
      )}
    </Alert>
  );
}
