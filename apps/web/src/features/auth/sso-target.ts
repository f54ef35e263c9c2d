import { ssoStartBody } from '@sundial/core';

/** The words of "Log in with SSO", in one place. */
export const ssoTexts = {
  label: 'Work e-mail or workspace ID',
  description:
    "We send you to your workspace's identity provider. Your admin finds the workspace ID on its Single sign-on page.",
  empty: 'Enter your work e-mail or your workspace ID.',
  badEmail: 'Enter a whole e-mail address, like you@company.com.',
  badWorkspace:
    'A workspace ID looks like 0192f5c4-7b1e-7c3a-9d2e-5f6a7b8c9d0e. Check it with your admin, or enter your work e-mail.',
} as const;

/**
 * What "Log in with SSO" sends for what the person typed: an e-mail (its verified domain finds the
 * workspace) or a workspace ID, as the API's start route takes them; or why neither fits.
 */
export function ssoTargetOf(input: string): { email: string } | { workspaceId: string } | { error: string } {
  const value = input.trim();
  if (!value) return { error: ssoTexts.empty };
  if (value.includes('@')) {
    return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value) && ssoStartBody.shape.email.safeParse(value).success
      ? { email: value }
      : { error: ssoTexts.badEmail };
  }
  const workspaceId = value.toLowerCase();
  return ssoStartBody.shape.workspaceId.safeParse(workspaceId).success
    ? { workspaceId }
    : { error: ssoTexts.badWorkspace };
}
