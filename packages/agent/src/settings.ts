import { type AgentConfigView, agentConfigView } from '@sundial/core/activity';
import { z } from 'zod';
import { readJson, writeFileAtomic } from './files.js';

/** What pairing leaves on the computer: the server and the device token, in a file only its owner reads (0600). */
export const pairing = z.object({
  server: z.url(),
  token: z.string().min(1),
  deviceId: z.string(),
  workspaceId: z.string(),
  userId: z.string(),
  pairedAt: z.string(),
});
export type Pairing = z.infer<typeof pairing>;

export function readPairing(file: string): Pairing | null {
  const parsed = pairing.safeParse(readJson(file));
  return parsed.success ? parsed.data : null;
}

export function writePairing(file: string, value: Pairing): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The workspace's settings as last fetched, kept so that an agent started offline records under the
 * same rules; an agent that never had them records nothing (it never guesses what is excluded).
 */
export function readCachedConfig(file: string): AgentConfigView | null {
  const parsed = agentConfigView.safeParse(readJson(file));
  return parsed.success ? parsed.data : null;
}

export function writeCachedConfig(file: string, config: AgentConfigView): void {
  writeFileAtomic(file, `${JSON.stringify(config)}\n`);
}
