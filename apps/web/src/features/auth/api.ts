import { api } from '../../api/client';
import { useSessionMutation } from '../../api/session';

export const useSignup = () =>
  useSessionMutation((body: { email: string; password: string; phone?: string; timeZone?: string }) =>
    api('POST /auth/signup', { body }),
  );

export const useLogin = () =>
  useSessionMutation((body: { email: string; password: string; remember: boolean }) =>
    api('POST /auth/login', { body }),
  );

export const requestPasswordReset = (email: string) => api('POST /auth/password/forgot', { body: { email } });

export const checkResetToken = (token: string) => api('GET /auth/password/reset/:token', { params: { token } });

export const resetPassword = (token: string, password: string) =>
  api('POST /auth/password/reset', { body: { token, password } });

/** Opening the link that confirms an e-mail address. */
export const verifyEmail = (token: string) => api('POST /auth/email/verify', { body: { token } });

/** "Send again": a new link confirming the signed-in user's address. */
export const resendVerification = () => api('POST /me/email/verification');

/** Only same-site paths inside the app may be returned to after log-in. */
export function safeNext(next: string | null): string {
  return next?.startsWith('/homepage') ? next : '/homepage/timesheet';
}

/** The social sign-in providers the operator configured (none: no buttons). */
export const fetchSocialProviders = () => api('GET /auth/oidc/providers');

/** Where a social provider's sign-in starts: a full-page navigation, the server redirects on. */
export const socialStartUrl = (providerId: string, next: string) =>
  `/api/v1/auth/oidc/${encodeURIComponent(providerId)}/start?returnTo=${encodeURIComponent(next)}`;

/** "Log in with SSO": the URL of the identity provider of the e-mail's workspace. */
export const startWorkspaceSso = (target: { email: string } | { workspaceId: string }, returnTo: string) =>
  api('POST /auth/sso/start', { body: { ...target, returnTo } });

export const fetchLinkRequest = () => api('GET /auth/sso/link');

export const useLinkAccount = () =>
  useSessionMutation((body: { password: string }) => api('POST /auth/sso/link', { body }));
