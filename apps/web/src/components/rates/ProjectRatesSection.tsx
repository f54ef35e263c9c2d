import { Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useWorkspace } from '../../api/session';
import { UpgradePrompt } from '../UpgradePrompt';
import { RatesPanel } from './RatesPanel';

/**
 * The "Rates" section of the project and task edit panels: the project's (or task's) own rates, and,
 * on a project, one person's rates on it (the project member level).
 */
export function ProjectRatesSection({
  workspaceId,
  projectId,
  taskId,
  people = [],
}: {
  workspaceId: string;
  projectId: string;
  taskId?: string;
  /** People who may be given their own rate on the project. */
  people?: { value: string; label: string }[];
}) {
  const [userId, setUserId] = useState<string | null>(null);
  const locked = !useWorkspace().hasFeature('billing_rates');
  return (
    <Stack gap="sm" component="section" aria-label="Rates">
      <Text fw={600} size="sm">
        Rates
      </Text>
      {locked ? (
        <UpgradePrompt feature="billing_rates" />
      ) : taskId ? (
        <RatesPanel workspaceId={workspaceId} target={{ level: 'task', taskId }} label="Task" />
      ) : (
        <>
          <RatesPanel workspaceId={workspaceId} target={{ level: 'project', projectId }} label="Project" />
          {people.length > 0 && (
            <Select
              label="A person’s own rate on this project"
              placeholder="Choose a person"
              data={people}
              value={userId}
              onChange={setUserId}
              clearable
              searchable
            />
          )}
          {userId && (
            <RatesPanel
              key={userId}
              workspaceId={workspaceId}
              target={{ level: 'project_member', projectId, userId }}
              label={people.find((p) => p.value === userId)?.label ?? 'Person'}
            />
          )}
        </>
      )}
    </Stack>
  );
}
