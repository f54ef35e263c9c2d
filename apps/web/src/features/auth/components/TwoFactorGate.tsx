import { Alert, Stack, Title } from '@mantine/core';
import { TwoFactorEnrolment } from '../../profile/components/TwoFactorEnrolment';
import { TwoFactorStep } from './TwoFactorStep';

/**
 * What follows a right password (issue 18): the code of a user with two-factor authentication, or
 * setting it up when a workspace requires it (the API allows nothing else until then).
 */
export function TwoFactorGate(props: {
  challenge?: string;
  enrol?: boolean;
  onDone: () => void;
  onRestart: () => void;
}) {
  if (props.challenge)
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
