import { type DemoRequestInput, TEAM_SIZE_LABELS } from '@sundial/core';

/** The e-mail that tells the operator someone asked for a demo. */
export function demoRequestMail(request: DemoRequestInput) {
  return {
    subject: `Demo request: ${request.company} (${TEAM_SIZE_LABELS[request.teamSize]})`,
    text: [
      'Someone asked for a demo of Sundial on the public site.',
      '',
      `Name: ${request.name}`,
      `Work e-mail: ${request.email}`,
      `Company: ${request.company}`,
      `Team size: ${TEAM_SIZE_LABELS[request.teamSize]}`,
      '',
      'Message:',
      request.message || '(none)',
      '',
      'Reply to the work e-mail above to find a time.',
    ].join('\n'),
  };
}
