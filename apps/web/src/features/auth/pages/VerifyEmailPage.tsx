import { Button, Loader, Stack, Title } from '@mantine/core';
import { messages } from '@sundial/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import { sessionKeys } from '../../../api/session';
import { AuthLayout } from '../../../components/AuthLayout';
import { ErrorBox } from '../../../components/ErrorBox';
import { verifyEmail } from '../api';
import { Notice } from '../components/Notice';

/** The link e-mailed at sign-up: opening it confirms the address (once; a query, so it is sent once per page). */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const queryClient = useQueryClient();
  const result = useQuery({
    queryKey: ['verify-email', token],
    queryFn: () => verifyEmail(token),
    enabled: !!token,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  // The banner asking for it goes as soon as the address is confirmed.
  useEffect(() => {
    if (result.isSuccess) void queryClient.invalidateQueries({ queryKey: sessionKeys.me });
  }, [result.isSuccess, queryClient]);

  const problem = !token ? messages.verifyLinkInvalid : result.error ? parseApiError(result.error).message : null;

  return (
    <AuthLayout headerLink={{ to: '/loginpage', label: 'Log in' }}>
      <Stack gap="md">
        <Title order={1} size="h2">
          Confirm your e-mail address
        </Title>
        {problem ? (
          <ErrorBox message={problem} />
        ) : result.isSuccess ? (
          <Notice message={result.data.message} />
        ) : (
          <Loader aria-label="Confirming your address" />
        )}
        <Button component={Link} to="/homepage/timesheet">
          Go to Sundial
        </Button>
      </Stack>
    </AuthLayout>
  );
}
