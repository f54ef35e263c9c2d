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
