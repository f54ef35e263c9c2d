import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { emailSchema } from '@sundial/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { parseApiError } from '../../../api/client';
import { AuthLayout } from '../../../components/AuthLayout';
import { ErrorBox } from '../../../components/ErrorBox';
import { EmailField } from '../../../components/fields';
import { requestPasswordReset } from '../api';
import { Notice } from '../components/Notice';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const request = useMutation({ mutationFn: requestPasswordReset });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    request.mutate(parsed.data, { onError: (err) => setError(parseApiError(err).message) });
  };

  return (
    <AuthLayout headerLink={{ to: '/loginpage', label: 'Log in' }}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Title order={1} size="h2">
            Forgotten password
          </Title>
          <Text c="dimmed">Enter the e-mail of your account and we will send you a link to set a new password.</Text>
          <ErrorBox message={error} />
          <Notice message={request.data?.message} />
          <EmailField label="E-mail" value={email} onChange={setEmail} />
          <Button type="submit" loading={request.isPending} fullWidth>
            Submit
          </Button>
          <Anchor component={Link} to="/loginpage" size="sm">
            Return to Login
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
