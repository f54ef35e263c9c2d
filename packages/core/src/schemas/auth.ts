import { z } from 'zod';
import { messages } from '../messages.js';
import { checkPasswordShape } from '../password.js';
import { text } from './text.js';

export const emailSchema = text({
  min: 1,
  max: 254,
  required: messages.allFieldsRequired,
  tooLong: messages.invalidEmail,
})
  .pipe(z.email({ error: messages.invalidEmail }))
  .transform((value) => value.toLowerCase());

/** A password as typed: never trimmed; the length rule itself is checkPasswordShape's. */
const passwordText = (max: number) => text({ trim: false, min: 1, max, required: messages.allFieldsRequired });

export const newPasswordSchema = passwordText(1024).superRefine((value, ctx) => {
  const problem = checkPasswordShape(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\d{0,10}$/, messages.phoneInvalid)
  .optional()
  .transform((value) => (value ? value : undefined));

export const timeZoneSchema = text({ max: 100 }).refine(isTimeZone, { message: 'Unknown time zone.' });

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const signupBody = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  phone: phoneSchema,
  timeZone: timeZoneSchema.optional(),
});
export type SignupBody = z.input<typeof signupBody>;

export const loginBody = z.object({
  email: text({ min: 1, max: 254, required: messages.allFieldsRequired }).transform((v) => v.toLowerCase()),
  password: passwordText(1024),
  remember: z.boolean().optional(),
});
export type LoginBody = z.input<typeof loginBody>;

export const forgotPasswordBody = z.object({ email: emailSchema });

export const resetPasswordBody = z.object({
  token: text({ trim: false, min: 10, max: 200, required: messages.resetLinkInvalid }),
  password: newPasswordSchema,
});

/** Opening the link that confirms an e-mail address (docs/decisions/0014). */
export const verifyEmailBody = z.object({
  token: text({ trim: false, min: 10, max: 200, required: messages.verifyLinkInvalid }),
});

export const changePasswordBody = z.object({
  currentPassword: passwordText(1024),
  newPassword: newPasswordSchema,
});
