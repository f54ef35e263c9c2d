import { Alert, Anchor, CloseButton, Group, Text } from '@mantine/core';
import { useSessionStorage } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import type { Me } from '../api/session';
import { done, failed } from '../components/notify';
import { resendVerification } from '../features/auth/api';

/**
 * "Confirm your e-mail address" until the person opens the link sent at sign-up (docs/decisions/0014).
 * The app works meanwhile; the address just matches nothing by e-mail yet. Closed, it stays away
 * for the rest of the browser session.
 */
export function EmailBanner({ me }: { me: Me }) {
  const [dismissed, setDismissed] = useSessionStorage({
    key: `sundial.email-banner.${me.user.id}`,
    defaultValue: false,
  });
  const resend = useMutation({ mutationFn: resendVerification });
  if (me.user.emailVerified || dismissed) return null;
  return (
    <Alert color="blue" radius={0} py={8} data-testid="email-banner" aria-label="Confirm your e-mail address">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        {/* A long address wraps anywhere (at 375 px it pushed the close button off the screen). */}
        <Text size="sm" miw={0} style={{ overflowWrap: 'anywhere' }}>
          <strong>Confirm your e-mail address.</strong> We sent a link to {me.user.email}.{' '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            fw={600}
            disabled={resend.isPending}
            onClick={() => resend.mutate(undefined, { onSuccess: (r) => done(r.message), onError: failed })}
          >
            Send again
          </Anchor>
        </Text>
        <CloseButton size="sm" aria-label="Dismiss" onClick={() => setDismissed(true)} />
      </Group>
    </Alert>
  );
}
