import { Alert, Button, Paper, Text, Title } from '@mantine/core';
import type { LinkedIdentityView } from '@sundial/core';
import { formatDate } from '@sundial/core';
import { parseApiError } from '../../../api/client';
import { useClockFormat } from '../../../api/session';
import { AccountTable, Cell } from '../../../components/AccountTable';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { failed } from '../../../components/notify';
import { useLinkedIdentities, useRemoveIdentity } from '../security-api';

const providerOf = (identity: LinkedIdentityView) =>
  identity.workspace ? `${identity.provider} (${identity.workspace.name})` : identity.provider;

/**
 * The identity provider accounts that sign in to this account (social and workspace SSO), each
 * removable; a password reset removes them all (docs/decisions/0014).
 */
export function LinkedIdentitiesSection() {
  const clock = useClockFormat();
  const identities = useLinkedIdentities();
  const remove = useRemoveIdentity();
  const items = identities.data?.items ?? [];

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="linked-identities-title">
      <Title order={2} size="h4" mb={4} id="linked-identities-title">
        Linked sign-in methods
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Accounts at other services that can sign you in to Sundial. Resetting your password removes them all.
      </Text>
      {identities.error ? (
        <ErrorPanel message={parseApiError(identities.error).message} onRetry={() => identities.refetch()} />
      ) : identities.isPending ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm">No other sign-in methods are linked: you sign in with your e-mail and password.</Text>
      ) : (
        <>
          {identities.data?.hasPassword === false && items.length === 1 && (
            <Alert color="blue" mb="md">
              This is your only way to sign in, so it cannot be removed. Set a password first: log out, then use “Forgot
              password”.
            </Alert>
          )}
          <AccountTable
            headers={['Provider', 'E-mail', 'Linked']}
            items={items}
            cells={(identity) => [
              <Cell key="provider">{providerOf(identity)}</Cell>,
              <Cell dimmed key="email">
                {identity.email}
              </Cell>,
              <Cell key="linked">{formatDate(identity.linkedAt, clock)}</Cell>,
            ]}
            action={(identity) => (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                aria-label={`Remove ${providerOf(identity)}`}
                loading={remove.isPending && remove.variables === identity.id}
                onClick={() => remove.mutate(identity.id, { onError: failed })}
              >
                Remove
              </Button>
            )}
          />
        </>
      )}
    </Paper>
  );
}
