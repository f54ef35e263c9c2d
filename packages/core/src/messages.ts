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
  tooManyAttempts: 'Too many failed log-in attempts. Please wait a few minutes and try again.',
  resetSent:
    'If an account exists for that e-mail, we have sent a link to reset the password. It is valid for one hour.',
  resetLinkUsed: 'This link has already been used. Ask for a new one.',
  resetLinkExpired: 'This link has expired. Ask for a new one.',
  resetLinkInvalid: 'This link is not valid. Ask for a new one.',
  passwordUpdated: 'Password Updated Successfully',
  currentPasswordWrong: 'The current password is not correct.',
  signInRequired: 'Please log in to continue.',
  notFound: 'Not found.',
  forbidden: 'You do not have permission to do that.',
} as const;
