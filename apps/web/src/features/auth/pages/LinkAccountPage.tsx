import { Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { messages } from '@sundial/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import { AuthLayout } from '../../../components/AuthLayout';
import { ErrorBox } from '../../../components/ErrorBox';
import { fetchLinkRequest, safeNext, useLinkAccount } from '../api';

/**
 * An identity provider vouched for an address that already has an account: the account's password,
 * typed once, links the two (nobody takes an account over with a provider's word alone).
 */
export function LinkAccountPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const request = useQuery({ queryKey: ['auth', 'sso-link'], queryFn: fetchLinkRequest, retry: false });
  const link = useLinkAccount();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const next = safeNext(params.get('returnTo'));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!password) {
      setError(messages.allFieldsRequired);
      return;
    }
    link.mutate(
      { password },
      {
        onSuccess: () => navigate(next, { replace: true }),
        onError: (err) => {
          const { code, message } = parseApiError(err);
          setError(code === 'wrong_credentials' ? messages.wrongCredentials : message);
        },
      },
    );
  };

  return (
    <AuthLayout headerLink={{ to: '/loginpage', label: 'Log in' }}>
      <Stack gap="md">
        <Title order={1} size="h2">
          Link your account
        </Title>
        {request.isError && (
          <>
            <ErrorBox message={parseApiError(request.error).message} />
            <Button component={Link} to="/loginpage" variant="default">
              Back to log in
            </Button>
          </>
        )}
        {request.data && (
          <form onSubmit={handleSubmit} noValidate>
            <Stack gap="md">
              <Text>
                {request.data.email} already has a Sundial account. Enter its password once to sign in with{' '}
                {request.data.provider} from now on.
              </Text>
              <ErrorBox message={error} />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                required
              />
              <Button type="submit" loading={link.isPending} fullWidth>
                Link and log in
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    </AuthLayout>
  );
}
