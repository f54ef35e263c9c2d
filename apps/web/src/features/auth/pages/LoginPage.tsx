import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { messages, ssoErrorMessage } from '@sundial/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import { AuthLayout } from '../../../components/AuthLayout';
import { ErrorBox } from '../../../components/ErrorBox';
import { EmailField } from '../../../components/fields';
import { preloadApp, warmUp } from '../../../warm-up';
import { safeNext, useLogin } from '../api';
import { Notice } from '../components/Notice';
import { PluginPanel } from '../components/PluginPanel';
import { SsoOptions } from '../components/SsoOptions';
import { type SecondStep, TwoFactorGate } from '../components/TwoFactorGate';

function secondStepOf(param: string | null): SecondStep | null {
  if (param === 'code') return { step: 'code' };
  if (param === 'enrol') return { step: 'enrol' };
  return null;
}

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const ssoError = params.get('ssoError');
  const [error, setError] = useState<string | null>(ssoError ? ssoErrorMessage(ssoError) : null);
  // Issue 18: a second step (2FA) or an enrolment a workspace requires, after the password or
  // after an identity provider (its callback sends the browser here with ?twoFactor=code|enrol).
  const [gate, setGate] = useState<SecondStep | null>(() => secondStepOf(params.get('twoFactor')));
  const notice = (location.state as { notice?: string } | null)?.notice;
  const queryClient = useQueryClient();
  const next = safeNext(params.get('next'));

  // While the person types, the app's code for where they are going loads (not run).
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    idle(() => preloadApp(next));
  }, [next]);

  const enter = () => {
    warmUp(queryClient, next);
    navigate(next, { replace: true });
  };

  if (gate) {
    return (
      <AuthLayout aside={<PluginPanel />} headerLink={{ to: '/signuppage', label: 'Sign up' }}>
        <TwoFactorGate {...gate} onDone={enter} onRestart={() => setGate(null)} />
      </AuthLayout>
    );
  }

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!email.trim() || !password) {
      setError(messages.allFieldsRequired);
      return;
    }
    login.mutate(
      { email, password, remember },
      {
        onSuccess: (answer) => {
          if (answer.twoFactor) return setGate({ step: 'code', challenge: answer.twoFactor.challenge });
          if (answer.twoFactorEnrolmentRequired) return setGate({ step: 'enrol' });
          enter();
        },
        onError: (err) => {
          const { code, message } = parseApiError(err);
          setError(code === 'validation_failed' || code === 'wrong_credentials' ? messages.wrongCredentials : message);
        },
      },
    );
  };

  return (
    <AuthLayout aside={<PluginPanel />} headerLink={{ to: '/signuppage', label: 'Sign up' }}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Title order={1} size="h2">
            Log in
          </Title>
          <Notice message={notice} />
          <ErrorBox message={error} />
          <EmailField value={email} onChange={setEmail} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            required
          />
          <Group justify="space-between">
            <Checkbox label="Remember me" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
            <Anchor component={Link} to="/forgotten_password" size="sm">
              Forgotten Password?
            </Anchor>
          </Group>
          <Button type="submit" size="md" loading={login.isPending} fullWidth>
            Log in
          </Button>
          <Text size="sm">
            No account?{' '}
            <Anchor component={Link} to="/signuppage">
              Sign up
            </Anchor>
          </Text>
        </Stack>
      </form>
      <SsoOptions next={next} />
    </AuthLayout>
  );
}
