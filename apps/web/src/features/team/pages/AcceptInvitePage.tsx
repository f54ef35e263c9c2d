import { Anchor, Button, Loader, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { checkPasswordShape } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import { sessionKeys, useLogout, useMe } from '../../../api/session';
import { AuthLayout } from '../../../components/AuthLayout';
import { ErrorBox } from '../../../components/ErrorBox';
import { NewPasswordField } from '../../../components/fields';
import { acceptInvite, fetchInvitePreview, type InvitePreview } from '../api';

/** The page behind the e-mailed invitation link: join, creating the account when needed. */
export default function AcceptInvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const me = useMe();
  const preview = useQuery({
    queryKey: ['invite', token],
    queryFn: () => fetchInvitePreview(token),
    enabled: !!token,
    retry: false,
  });

  const problem = !token
    ? 'This invitation link is not valid. Ask for a new invitation.'
    : preview.error
      ? parseApiError(preview.error).message
      : null;

  return (
    <AuthLayout headerLink={{ to: '/loginpage', label: 'Log in' }}>
      <Stack gap="md">
        <Title order={1} size="h2">
          Join a workspace
        </Title>
        {preview.isLoading || me.isLoading ? (
          <Loader aria-label="Checking the invitation" />
        ) : problem || !preview.data ? (
          <>
            <ErrorBox message={problem} />
            <Text size="sm">
              <Anchor component={Link} to="/loginpage">
                Return to Login
              </Anchor>
            </Text>
          </>
        ) : (
          <AcceptForm token={token} invite={preview.data} signedInAs={me.data?.user.email ?? null} />
        )}
      </Stack>
    </AuthLayout>
  );
}

function AcceptForm({
  token,
  invite,
  signedInAs,
}: {
  token: string;
  invite: InvitePreview;
  signedInAs: string | null;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const accept = useMutation({ mutationFn: () => acceptInvite(token, { password: password || undefined, name }) });
  const mine = signedInAs?.toLowerCase() === invite.email.toLowerCase();
  const someoneElse = signedInAs !== null && !mine;
  const newAccount = !invite.hasAccount && !mine;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (newAccount) {
      const shape = checkPasswordShape(password);
      if (shape) {
        setError(shape);
        return;
      }
    } else if (!mine && !password) {
      setError('Please provide all fields.');
      return;
    }
    accept.mutate(undefined, {
      onSuccess: async () => {
        await queryClient.resetQueries({ queryKey: sessionKeys.me });
        navigate('/homepage/timesheet', { replace: true });
      },
      onError: (err) => setError(parseApiError(err).message),
    });
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Text>
          {invite.inviter ? `${invite.inviter} invited you` : 'You are invited'} to join{' '}
          <strong>{invite.workspaceName}</strong> as {invite.roleLabel}.
        </Text>
        <ErrorBox message={error} />
        {someoneElse ? (
          <>
            <Text size="sm">
              You are logged in as {signedInAs}, but this invitation is for {invite.email}. Log out and open the link
              again to accept it.
            </Text>
            <Button onClick={() => logout.mutate()} loading={logout.isPending}>
              Log out
            </Button>
          </>
        ) : (
          <>
            <TextInput label="Email" value={invite.email} readOnly />
            {newAccount && (
              <>
                <TextInput
                  label="Your name"
                  value={name}
                  onChange={(e) => setName(e.currentTarget.value)}
                  maxLength={100}
                  autoComplete="name"
                />
                <NewPasswordField label="Choose a password" value={password} onChange={setPassword} />
              </>
            )}
            {!newAccount && !mine && (
              <PasswordInput
                label="Your Sundial password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                required
              />
            )}
            <Button type="submit" loading={accept.isPending} fullWidth>
              {newAccount ? 'Create account and join' : 'Join workspace'}
            </Button>
          </>
        )}
      </Stack>
    </form>
  );
}
