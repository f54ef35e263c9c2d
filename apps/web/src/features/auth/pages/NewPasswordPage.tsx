import { Anchor, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { checkPasswordShape } from '@sundial/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import { AuthLayout } from '../../../components/AuthLayout';
import { ErrorBox } from '../../../components/ErrorBox';
import { NewPasswordField } from '../../../components/fields';
import { checkResetToken, resetPassword } from '../api';

export function NewPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const link = useQuery({
    queryKey: ['reset-link', token],
    queryFn: () => checkResetToken(token),
    enabled: !!token,
    retry: false,
  });
  const reset = useMutation({ mutationFn: () => resetPassword(token, password) });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const problem = checkPasswordShape(password);
    if (problem) {
      setError(problem);
      return;
    }
    reset.mutate(undefined, {
      onSuccess: (result) => navigate('/loginpage', { replace: true, state: { notice: result.message } }),
      onError: (err) => setError(parseApiError(err).message),
    });
  };

  const linkProblem = !token
    ? 'This link is not valid. Ask for a new one.'
    : link.error
      ? parseApiError(link.error).message
      : null;

  return (
    <AuthLayout headerLink={{ to: '/loginpage', label: 'Log in' }}>
      <Stack gap="md">
        <Title order={1} size="h2">
          Set a new password
        </Title>
        {link.isLoading ? (
          <Loader aria-label="Checking the link" />
        ) : linkProblem ? (
          <>
            <ErrorBox message={linkProblem} />
            <Button component={Link} to="/forgotten_password">
              Send me a new link
            </Button>
          </>
        ) : (
          <form onSubmit={handleSubmit} noValidate>
            <Stack gap="md">
              <ErrorBox message={error} />
              <NewPasswordField label="New Password" value={password} onChange={setPassword} />
              <Button type="submit" loading={reset.isPending} fullWidth>
                Submit
              </Button>
            </Stack>
          </form>
        )}
        <Text size="sm">
          <Anchor component={Link} to="/loginpage">
            Return to Login
          </Anchor>
        </Text>
      </Stack>
    </AuthLayout>
  );
}
