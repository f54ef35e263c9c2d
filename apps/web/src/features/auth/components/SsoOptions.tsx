import { Button, Divider, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { ErrorBox } from '../../../components/ErrorBox';
import { fetchSocialProviders, socialStartUrl, startWorkspaceSso } from '../api';
import { ssoTargetOf, ssoTexts } from '../sso-target';

/**
 * Other ways in on the log-in and sign-up pages: a "Continue with …" button per social provider the
 * operator configured (none: no buttons), and "Log in with SSO", which asks for the work e-mail or
 * the workspace ID and goes to that workspace's identity provider.
 */
export function SsoOptions({ next, workspaceSso = true }: { next: string; workspaceSso?: boolean }) {
  const providers = useQuery({ queryKey: ['auth', 'social-providers'], queryFn: fetchSocialProviders });
  const [asking, setAsking] = useState(false);
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [going, setGoing] = useState(false);
  const items = providers.data?.items ?? [];
  if (items.length === 0 && !workspaceSso) return null;

  const handleSso = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const body = ssoTargetOf(target);
    if ('error' in body) {
      setError(body.error);
      return;
    }
    setGoing(true);
    try {
      const { url } = await startWorkspaceSso(body, next);
      window.location.assign(url);
    } catch (err) {
      setError(parseApiError(err).message);
      setGoing(false);
    }
  };

  return (
    <Stack gap="sm" mt="md">
      <Divider label="or" labelPosition="center" />
      {items.map((provider) => (
        <Button key={provider.id} component="a" href={socialStartUrl(provider.id, next)} variant="default" fullWidth>
          Continue with {provider.name}
        </Button>
      ))}
      {workspaceSso && !asking && (
        <Button variant="subtle" onClick={() => setAsking(true)} fullWidth>
          Log in with SSO
        </Button>
      )}
      {workspaceSso && asking && (
        <form onSubmit={handleSso} noValidate aria-label="Log in with SSO">
          <Stack gap="sm">
            <ErrorBox message={error} />
            <TextInput
              label={ssoTexts.label}
              description={ssoTexts.description}
              autoComplete="email"
              autoCapitalize="none"
              spellCheck={false}
              value={target}
              onChange={(e) => setTarget(e.currentTarget.value)}
              error={error !== null}
            />
            <Button type="submit" loading={going} fullWidth>
              Continue with SSO
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
