import { Anchor, Button, Code, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { parseApiError } from '../../api/client';
import { useEnableTwoFactor, useTwoFactorSetup } from '../../api/two-factor';
import { AppCodeInput } from './AppCodeInput';
import { RecoveryCodes } from './RecoveryCodes';

/**
 * Setting up two-factor authentication: scan the QR code (or open the otpauth link, or type the
 * key), confirm with a first code, then save the recovery codes. Used on the profile and at sign-in
 * when a workspace requires it.
 */
export function TwoFactorEnrolment({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const setup = useTwoFactorSetup();
  const enable = useEnableTwoFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const { mutate: start } = setup;

  useEffect(() => start(), [start]);

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  if (setup.isError) return <Text c="red">{parseApiError(setup.error).message}</Text>;
  if (!setup.data) return <Loader size="sm" />;

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    enable.mutate(code, {
      onSuccess: (data) => setCodes(data.recoveryCodes),
      onError: (err) => {
        const parsed = parseApiError(err);
        setError(parsed.fields.code ?? parsed.message);
      },
    });
  };

  return (
    <Stack gap="sm" component="form" onSubmit={confirm}>
      <Text size="sm">
        Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…), then enter the 6-digit
        code it shows.
      </Text>
      <Group align="flex-start" gap="lg">
        <Image src={setup.data.qrCodeDataUrl} alt="QR code for your authenticator app" w={180} h={180} />
        <Stack gap={6} style={{ flex: 1, minWidth: 220 }}>
          <Anchor href={setup.data.otpauthUrl} size="sm" data-testid="otpauth-link">
            Open in an authenticator app on this device
          </Anchor>
          <Text size="sm" c="dimmed">
            Or type this key:
          </Text>
          <Code style={{ wordBreak: 'break-all' }}>{setup.data.secret}</Code>
        </Stack>
      </Group>
      <Group align="flex-end">
        <AppCodeInput value={code} onChange={setCode} error={error} />
        <Button type="submit" loading={enable.isPending}>
          Turn on
        </Button>
        {onCancel && (
          <Button variant="subtle" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </Group>
    </Stack>
  );
}
