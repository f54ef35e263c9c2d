/** Texts a person reads, shared by API and web so both say the same thing. */
export const messages = {
  allFieldsRequired: 'Please provide all fields.',
  invalidEmail: 'Invalid Email.',
  passwordRule: 'Password must have greater than 8 characters, contain special character and a number.',
  passwordCommon: 'This password is too common. Please choose a less predictable one.',
  passwordTooLong: 'Password must be at most 128 characters.',
  phoneInvalid: 'Phone must be at most 10 digits.',
  emailTaken: 'This e-mail is already in use.',
  wrongCredentials: 'Wrong e-mail or password.',
  resetSent:
    'If an account exists for that e-mail, we have sent a link to reset the password. It is valid for one hour.',
  resetLinkUsed: 'This link has already been used. Ask for a new one.',
  resetLinkExpired: 'This link has expired. Ask for a new one.',
  resetLinkInvalid: 'This link is not valid. Ask for a new one.',
  passwordUpdated: 'Password Updated Successfully',
  verifyLinkUsed: 'This confirmation link has already been used. Send a new one from the banner in Sundial.',
  verifyLinkExpired: 'This confirmation link has expired. Send a new one from the banner in Sundial.',
  verifyLinkInvalid: 'This confirmation link is not valid. Send a new one from the banner in Sundial.',
  emailVerified: 'Your e-mail address is confirmed.',
  verificationSent: 'We have sent a new link to confirm your e-mail address. It is valid for 24 hours.',
  currentPasswordWrong: 'The current password is not correct.',
  signInRequired: 'Please log in to continue.',
  notFound: 'Not found.',
  forbidden: 'You do not have permission to do that.',
} as const;

/** How long until a refused request may be tried again, in words: "30 seconds", "42 minutes", "2 hours". */
export function waitText(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return plural(s, 'second');
  if (s < 90 * 60) return plural(Math.ceil(s / 60), 'minute');
  return plural(Math.ceil(s / 3600), 'hour');
}

/** Answers of the abuse limits (429); each takes the wait in words from waitText. */
export const limitMessages = {
  signupPerIp: (wait: string) => `Too many sign-ups from your network. Please try again in ${wait}.`,
  twoFactorCodes: (wait: string) => `Too many wrong codes. Please try again in ${wait}.`,
  loginPerIp: (wait: string) => `Too many failed log-in attempts from your network. Please try again in ${wait}.`,
  loginDelayed: (wait: string) =>
    `Too many failed log-in attempts for this account. Please try again in ${wait}, or reset your password.`,
  passwordChange: (wait: string) => `Too many wrong current passwords. Please try again in ${wait}.`,
  forgotPerIp: (wait: string) => `Too many password-reset requests from your network. Please try again in ${wait}.`,
  forgotPerEmail: (wait: string) =>
    `Too many password-reset requests for this e-mail. Please check your inbox, or try again in ${wait}.`,
  inviteResend: (wait: string) =>
    `This invitation has been sent several times in the last hour. Please try again in ${wait}.`,
  verifyEmail: (wait: string) =>
    `We have sent several confirmation links in the last hour. Please check your inbox, or try again in ${wait}.`,
  demoPerIp: (wait: string) => `You have sent several requests in the last hour. Please try again in ${wait}.`,
  demoPerEmail: (wait: string) =>
    `Several requests came from this e-mail in the last hour. Please try again in ${wait}.`,
} as const;
