import type { APIRequestContext } from '@playwright/test';

export const PASSWORD = 'Sunny-days-2026!';
let n = 0;
export const newEmail = (prefix = 'e2e') => `${prefix}.${Date.now()}.${++n}@example.org`;

/** Signs up over HTTP (the journey under test is elsewhere); the request context keeps the cookie. */
export async function signUpOverHttp(request: APIRequestContext, email = newEmail()): Promise<string> {
  const response = await request.post('/api/v1/auth/signup', { data: { email, password: PASSWORD } });
  if (response.status() !== 201) throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
  return email;
}
