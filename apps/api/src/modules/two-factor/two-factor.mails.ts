/** Sent when a recovery code signed someone in: the owner learns of it even if it was not them. */
export function recoveryCodeUsedMail(input: { left: number; securityUrl: string }) {
  const left = `${input.left} recovery code${input.left === 1 ? '' : 's'} left`;
  return {
    subject: 'A recovery code was used to sign in to Sundial',
    text: [
      'A recovery code was just used to sign in to your Sundial account.',
      `You have ${left}.`,
      '',
      `If it was not you, change your password and make new recovery codes: ${input.securityUrl}`,
    ].join('\n'),
    html: `<p>A recovery code was just used to sign in to your Sundial account. You have ${left}.</p>
<p>If it was not you, <a href="${input.securityUrl}">change your password and make new recovery codes</a>.</p>`,
  };
}

/** Sent when a workspace admin turned a member's two-factor authentication off. */
export function twoFactorResetMail(input: { workspaceName: string; securityUrl: string }) {
  return {
    subject: 'Your two-factor authentication was reset',
    text: [
      `An administrator of the workspace "${input.workspaceName}" turned off two-factor authentication for your Sundial account.`,
      `Set it up again here: ${input.securityUrl}`,
    ].join('\n'),
  };
}
