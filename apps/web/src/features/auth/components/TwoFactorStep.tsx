import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { api, parseApiError } from '../../../api/client';
import { useSessionMutation } from '../../../api/session';
import { ErrorBox } from '../../../components/ErrorBox';

const useSecondStep = () =>
  useSessionMutation((body: { challenge?: string; code?: string; recoveryCode?: string }) =>
    api('POST /auth/login/two-factor', { body }),
  );

/** The sign-in's second step: the code from the authenticator app, or one recovery code. */
export function TwoFactorStep({
  challenge,
  onDone,
  onRestart,
}: {
  /** None after an identity provider: the browser holds it in a cookie. */
  challenge?: string;
  onDone: () => void;
  onRestart: () => void;
}) {
  const secondStep = useSecondStep();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    secondStep.mutate(useRecovery ? { challenge, recoveryCode: value } : { challenge, code: value }, {
      onSuccess: onDone,
      onError: (err) => {
        const { code, message, fields } = parseApiError(err);
        if (code === 'challenge_expired') onRestart();
        setError(fields.code ?? fields.recoveryCode ?? message);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={1} size="h2">
          Two-factor authentication
        </Title>
        <Text size="sm">
          {useRecovery
            ? 'Enter one of your recovery codes. Each works once.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </Text>
        <ErrorBox message={error} />
        <TextInput
          label={useRecovery ? 'Recovery code' : 'Code'}
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          maxLength={useRecovery ? 20 : 7}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          autoFocus
        />
        <Button type="submit" size="md" loading={secondStep.isPending} fullWidth>
          Verify
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue('');
            setError(null);
          }}
        >
          {useRecovery ? 'Use the code from your app instead' : 'Use a recovery code instead'}
        </Anchor>
      </Stack>
    </form>
  );
}
