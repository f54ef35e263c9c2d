/** The password-reset e-mail. */
export function passwordResetMail(link: string) {
  return {
    subject: 'Reset your Sundial password',
    text: [
      'Someone asked to reset the password of your Sundial account.',
      '',
      `Set a new password here (the link works once, for one hour):`,
      link,
      '',
      'If it was not you, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
    html: `<p>Someone asked to reset the password of your Sundial account.</p>
<p><a href="${link}">Set a new password</a> (the link works once, for one hour).</p>
<p>If it was not you, ignore this e-mail: your password stays as it is.</p>`,
  };
}

/** The link confirming the address of a new account (docs/decisions/0014). */
export function emailVerificationMail(link: string) {
  return {
    subject: 'Confirm your e-mail address for Sundial',
    text: [
      'Confirm that this is your e-mail address for your Sundial account:',
      link,
      '',
      'The link works once, for 24 hours. If you did not sign up for Sundial, ignore this e-mail.',
    ].join('\n'),
    html: `<p>Confirm that this is your e-mail address for your Sundial account:</p>
<p><a href="${link}">Confirm my e-mail address</a></p>
<p>The link works once, for 24 hours. If you did not sign up for Sundial, ignore this e-mail.</p>`,
  };
}
