import { z } from 'zod';
import { messages } from '../messages.js';
import { checkPasswordShape } from '../password.js';

export const emailSchema = z
  .string({ error: messages.allFieldsRequired })
  .trim()
  .min(1, messages.allFieldsRequired)
  .max(254, messages.invalidEmail)
  .pipe(z.email({ error: messages.invalidEmail }))
  .transform((value) => value.toLowerCase());

export const newPasswordSchema = z
  .string({ error: messages.allFieldsRequired })
  .min(1, messages.allFieldsRequired)
  .superRefine((value, ctx) => {
    const problem = checkPasswordShape(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\d{0,10}$/, messages.phoneInvalid)
  .optional()
  .transform((value) => (value ? value : undefined));

export const timeZoneSchema = z.string().refine(isTimeZone, { message: 'Unknown time zone.' });

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
  email: z
    .string()
    .trim()
    .min(1, messages.allFieldsRequired)
    .max(254)
    .transform((v) => v.toLowerCase()),
  password: z.string().min(1, messages.allFieldsRequired).max(1024),
  remember: z.boolean().optional(),
});
export type LoginBody = z.input<typeof loginBody>;

export const forgotPasswordBody = z.object({ email: emailSchema });

export const resetPasswordBody = z.object({
  token: z.string().min(10).max(200),
  password: newPasswordSchema,
});

export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, messages.allFieldsRequired).max(1024),
  newPassword: newPasswordSchema,
});
