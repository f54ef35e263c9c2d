import { z } from 'zod';
import { text } from './text.js';

/** A six-digit code from an authenticator app (spaces a user types are dropped). */
export const totpCode = z
  .string()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

/** A recovery code as shown (`xxxxx-xxxxx`); case, spaces and dashes are forgiven. */
export const recoveryCode = z
  .string()
  .transform((v) => v.toLowerCase().replace(/[\s-]+/g, ''))
  .pipe(z.string().regex(/^[a-z2-7]{10}$/, 'A recovery code has ten letters and digits.'));

const factorFields = { code: totpCode.optional(), recoveryCode: recoveryCode.optional() };
/** Exactly one of the two. */
const oneFactor: [(v: { code?: string; recoveryCode?: string }) => boolean, { message: string; path: string[] }] = [
  (v) => (v.code === undefined) !== (v.recoveryCode === undefined),
  { message: 'Enter the code from your authenticator app or one recovery code.', path: ['code'] },
];

/** A fresh code: from the app, or one of the recovery codes. */
export const secondFactorBody = z.object(factorFields).refine(...oneFactor);
export type SecondFactorBody = z.input<typeof secondFactorBody>;

/**
 * The sign-in's second step: the challenge the password step answered, and a code. After an
 * identity provider the browser holds the challenge in a cookie and sends none here.
 */
export const loginSecondStepBody = z
  .object({ challenge: text({ trim: false, min: 10, max: 200 }).optional(), ...factorFields })
  .refine(...oneFactor);
export type LoginSecondStepBody = z.input<typeof loginSecondStepBody>;

export const enableTwoFactorBody = z.object({ code: totpCode });

/** Where a user stands with two-factor authentication. */
export const twoFactorStatusView = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
  /** A workspace of the user requires it (they cannot turn it off). */
  requiredByWorkspace: z.boolean(),
  /** This session may only set up two-factor authentication. */
  enrolmentOnly: z.boolean(),
});
export type TwoFactorStatusView = z.infer<typeof twoFactorStatusView>;

/** A new seed to scan: the otpauth:// link, as a QR code image (data: URL) and as text. */
export const twoFactorSetupView = z.object({
  otpauthUrl: z.string(),
  qrCodeDataUrl: z.string(),
  secret: z.string(),
});
export type TwoFactorSetupView = z.infer<typeof twoFactorSetupView>;

/** Recovery codes, shown once. */
export const recoveryCodesView = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesView = z.infer<typeof recoveryCodesView>;

/** The password was right and a code is due: the challenge for the second step. */
export const twoFactorChallengeView = z.object({
  twoFactor: z.object({ challenge: z.string(), expiresAt: z.string() }),
});

export const twoFactorPolicyView = z.object({ required: z.boolean() });
export const twoFactorPolicyBody = z.object({ required: z.boolean() });

/** A signed-in browser of the user, as the profile lists it. */
export const sessionView = z.object({
  id: z.string(),
  /** "Firefox on Windows", from the user agent. */
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionView = z.infer<typeof sessionView>;
export const sessionsView = z.object({ items: z.array(sessionView) });

/** "Firefox on Windows" from a User-Agent header; "Unknown device" when it says nothing we know. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /curl\//i.test(ua)
              ? 'curl'
              : undefined;
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Android/.test(ua)
        ? 'Android'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : undefined;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? 'Unknown device';
}
