/** Sent to a webhook's creator when Sundial turns it off because its endpoint kept failing. */
export function webhookDisabledMail(input: { url: string; workspaceName: string; reason: string }) {
  return {
    subject: `Sundial turned off your webhook to ${new URL(input.url).host}`,
    text: [
      `Your webhook to ${input.url} in the workspace "${input.workspaceName}" is turned off.`,
      input.reason,
      '',
      'Events are no longer sent to it. Once the endpoint answers again, an owner or admin of the',
      'workspace can turn the webhook back on; the failed deliveries can be sent again from its log.',
    ].join('\n'),
  };
}
