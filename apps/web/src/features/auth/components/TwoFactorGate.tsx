import { Alert, Stack, Title } from '@mantine/core';
import { TwoFactorEnrolment } from '../../../components/two-factor/TwoFactorEnrolment';
import { TwoFactorStep } from './TwoFactorStep';

/**
 * What follows a right password or an identity provider's sign-in (issue 18): the code of a user
 * with two-factor authentication, or setting it up when a workspace requires it (the API allows
 * nothing else until then). After a provider the challenge is in an HttpOnly cookie, not here.
 */
export type SecondStep = { step: 'code'; challenge?: string } | { step: 'enrol' };

export function TwoFactorGate(props: SecondStep & { onDone: () => void; onRestart: () => void }) {
  if (props.step === 'code')
    return <TwoFactorStep challenge={props.challenge} onDone={props.onDone} onRestart={props.onRestart} />;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Set up two-factor authentication
      </Title>
      <Alert color="yellow">Your workspace requires two-factor authentication. Set it up to continue.</Alert>
      <TwoFactorEnrolment onDone={props.onDone} />
    </Stack>
  );
}
