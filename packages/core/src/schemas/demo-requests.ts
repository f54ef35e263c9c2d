import { z } from 'zod';
import { text } from './text.js';

/** Team sizes a demo request can name, with the words the form shows. */
export const TEAM_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1000+'] as const;
export type TeamSize = (typeof TEAM_SIZES)[number];
export const TEAM_SIZE_LABELS: Record<TeamSize, string> = {
  '1-10': '1–10 people',
  '11-50': '11–50 people',
  '51-200': '51–200 people',
  '201-1000': '201–1,000 people',
  '1000+': 'More than 1,000 people',
};

export const demoRequestMessages = {
  nameRequired: 'Please enter your name.',
  nameTooLong: 'Name must be at most 100 characters.',
  emailRequired: 'Please enter your work e-mail.',
  emailInvalid: 'Please enter a valid e-mail address, like jane@company.com.',
  companyRequired: 'Please enter your company.',
  companyTooLong: 'Company must be at most 200 characters.',
  teamSizeRequired: 'Please choose the size of your team.',
  messageTooLong: 'Message must be at most 2,000 characters.',
  oneLine: 'Please keep this on one line.',
  received: 'Thank you! We have your request and will write to you to find a time for the demo.',
} as const;

const m = demoRequestMessages;

const oneLine = (required: string, tooLong: string, max: number) =>
  text({ min: 1, max, required, tooLong }).regex(/^[^\r\n]*$/, m.oneLine);

export const demoRequestBody = z.object({
  name: oneLine(m.nameRequired, m.nameTooLong, 100),
  email: text({ min: 1, max: 254, required: m.emailRequired, tooLong: m.emailInvalid })
    .pipe(z.email({ error: m.emailInvalid }))
    .transform((value) => value.toLowerCase()),
  company: oneLine(m.companyRequired, m.companyTooLong, 200),
  teamSize: z.enum(TEAM_SIZES, { error: m.teamSizeRequired }),
  message: text({ max: 2000, tooLong: m.messageTooLong }).optional().default(''),
});
export type DemoRequestBody = z.input<typeof demoRequestBody>;
export type DemoRequestInput = z.output<typeof demoRequestBody>;
