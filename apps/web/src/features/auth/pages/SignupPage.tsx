import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { messages, signupBody } from '@sundial/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import { AuthLayout } from '../../../components/AuthLayout';
import { ErrorBox } from '../../../components/ErrorBox';
import { EmailField, NewPasswordField } from '../../../components/fields';
import { safeNext, useSignup } from '../api';
import { SsoOptions } from '../components/SsoOptions';

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function SignupPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signup = useSignup();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setFieldErrors({});
    if (!email.trim() || !password) {
      setError(messages.allFieldsRequired);
      return;
    }
    const parsed = signupBody.safeParse({ email, password, phone, timeZone: browserTimeZone() });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setFieldErrors(fields);
      setError(Object.values(fields)[0] ?? null);
      return;
    }
    signup.mutate(
      { email, password, phone: phone || undefined, timeZone: parsed.data.timeZone },
      {
        // The first screen asks for a name and a workspace name (it can be skipped).
        onSuccess: () => navigate('/homepage/welcome', { replace: true }),
        onError: (err) => {
          const parsedError = parseApiError(err);
          setError(parsedError.message);
          setFieldErrors(parsedError.fields);
        },
      },
    );
  };

  return (
    <AuthLayout headerLink={{ to: '/loginpage', label: 'Log in' }}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              Start tracking time
            </Title>
            <Text c="dimmed" mt={4}>
              Free 14-day trial with all features. No credit card needed.
            </Text>
          </div>
          <ErrorBox message={error} />
          <EmailField value={email} onChange={setEmail} error={!!fieldErrors.email} />
          <NewPasswordField value={password} onChange={setPassword} error={!!fieldErrors.password} />
          <TextInput
            label="Phone (optional)"
            type="tel"
            inputMode="numeric"
            autoComplete="tel"
            maxLength={10}
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value.replace(/\D/g, ''))}
            error={fieldErrors.phone ? true : undefined}
          />
          <Button type="submit" size="md" loading={signup.isPending} fullWidth>
            Sign up for free
          </Button>
          <Text size="sm" c="dimmed">
            You can start at once; we will e-mail you a link to confirm your address.
          </Text>
          <Text size="sm" c="dimmed">
            By signing up you agree to the{' '}
            <Anchor component={Link} to="/terms">
              Terms of Service
            </Anchor>{' '}
            and{' '}
            <Anchor component={Link} to="/privacy">
              Privacy Policy
            </Anchor>
            .
          </Text>
          <Text size="sm">
            Already have an account?{' '}
            <Anchor component={Link} to="/loginpage">
              Log in
            </Anchor>
          </Text>
        </Stack>
      </form>
      <SsoOptions next={safeNext(null)} workspaceSso={false} />
    </AuthLayout>
  );
}
