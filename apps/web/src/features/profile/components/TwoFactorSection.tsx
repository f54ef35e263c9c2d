import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatDate } from '@sundial/core';
import { type FormEvent, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat } from '../../../api/session';
import { AppCodeInput } from '../../../components/two-factor/AppCodeInput';
import { RecoveryCodes } from '../../../components/two-factor/RecoveryCodes';
import { TwoFactorEnrolment } from '../../../components/two-factor/TwoFactorEnrolment';
import { useDisableTwoFactor, useRegenerateRecoveryCodes, useTwoFactorStatus } from '../security-api';

type Mode = 'idle' | 'enrol' | 'regenerate' | 'disable';

/** A fresh code from the app, asked before new recovery codes or turning 2FA off. */
function FreshCode({
  label,
  submitLabel,
  color,
  pending,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  color?: string;
  pending: boolean;
  onSubmit: (code: string, fail: (message: string) => void) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    onSubmit(code, setError);
  };
  return (
    <Group align="flex-end" component="form" onSubmit={submit}>
      <AppCodeInput value={code} onChange={setCode} error={error} label={label} />
      <Button type="submit" color={color} loading={pending}>
        {submitLabel}
      </Button>
      <Button variant="subtle" onClick={onCancel}>
        Cancel
      </Button>
    </Group>
  );
}

const failWith = (fail: (message: string) => void) => (error: unknown) => {
  const parsed = parseApiError(error);
  fail(parsed.fields.code ?? parsed.message);
};

/** The profile's two-factor authentication: set up, new recovery codes, turn off. */
export function TwoFactorSection() {
  const clock = useClockFormat();
  const status = useTwoFactorStatus();
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableTwoFactor();
  const [mode, setMode] = useState<Mode>('idle');
  const [codes, setCodes] = useState<string[] | null>(null);
  const data = status.data;

  return (
    <Paper withBorder p="lg" radius="md" id="security">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          Two-factor authentication
        </Title>
        {data && (
          <Badge color={data.enabled ? 'green' : 'gray'} variant="light">
            {data.enabled ? 'On' : 'Off'}
          </Badge>
        )}
      </Group>
      {!data ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : mode === 'enrol' ? (
        // Kept while 2FA turns on, so the recovery codes it answers are shown.
        <TwoFactorEnrolment onDone={() => setMode('idle')} onCancel={() => setMode('idle')} />
      ) : !data.enabled ? (
        <Stack gap="sm">
          {data.requiredByWorkspace && (
            <Alert color="yellow">Your workspace requires two-factor authentication. Set it up to continue.</Alert>
          )}
          <Text size="sm">
            Sign in with your password and a code from an authenticator app on your phone, so a stolen password is not
            enough.
          </Text>
          <Group>
            <Button onClick={() => setMode('enrol')}>Set up two-factor authentication</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            On since {data.enabledAt ? formatDate(data.enabledAt, clock) : '—'}. {data.recoveryCodesLeft} of 10 recovery
            codes left.
          </Text>
          {mode === 'regenerate' ? (
            <FreshCode
              label="Code from the app"
              submitLabel="Make new recovery codes"
              pending={regenerate.isPending}
              onCancel={() => setMode('idle')}
              onSubmit={(code, fail) =>
                regenerate.mutate(code, {
                  onSuccess: (result) => {
                    setMode('idle');
                    setCodes(result.recoveryCodes);
                  },
                  onError: failWith(fail),
                })
              }
            />
          ) : mode === 'disable' ? (
            <FreshCode
              label="Code from the app"
              submitLabel="Turn off"
              color="red"
              pending={disable.isPending}
              onCancel={() => setMode('idle')}
              onSubmit={(code, fail) =>
                disable.mutate(code, {
                  onSuccess: () => {
                    setMode('idle');
                    notifications.show({ color: 'green', message: 'Two-factor authentication is off.' });
                  },
                  onError: failWith(fail),
                })
              }
            />
          ) : (
            <Group>
              <Button variant="light" onClick={() => setMode('regenerate')}>
                New recovery codes
              </Button>
              <Button
                variant="light"
                color="red"
                onClick={() => setMode('disable')}
                disabled={data.requiredByWorkspace}
              >
                Turn off
              </Button>
            </Group>
          )}
          {data.requiredByWorkspace && (
            <Text size="xs" c="dimmed">
              Your workspace requires two-factor authentication, so it cannot be turned off.
            </Text>
          )}
        </Stack>
      )}
    </Paper>
  );
}
