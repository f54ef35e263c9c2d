import { type ClockFormat, formatDateTime } from '@sundial/core';

/** Sent 7 days before a key stops working, so the scripts that use it can get a new one in time. */
export function keyExpiringMail(input: {
  name: string;
  prefix: string;
  expiresAt: Date;
  clock: ClockFormat;
  keysUrl: string;
}) {
  return {
    subject: `Your Sundial API key "${input.name}" expires in 7 days`,
    text: [
      `Your API key "${input.name}" (${input.prefix}…) stops working on ${formatDateTime(input.expiresAt, input.clock)}.`,
      'Scripts and integrations that use it will then be refused.',
      '',
      `Make a new key and put it in their place: ${input.keysUrl}`,
    ].join('\n'),
  };
}
