import os from 'node:os';
import { AGENT_PLATFORMS, type AgentPlatform } from '@sundial/core/activity';
import { type AgentApi, ApiError, NetworkError } from './api-client.js';
import type { Pairing } from './settings.js';

export interface PairOptions {
  server: string;
  api: AgentApi;
  agentVersion: string;
  name?: string;
  print: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The device flow (RFC 8628): asks for a code, shows the person where to approve it, and polls for
 * the token at the server's interval (five seconds slower after each `slow_down`) until it comes,
 * the person refuses, or the code expires. No password ever passes through the agent. Throws with a
 * message for the person when pairing cannot finish.
 */
export async function pairDevice(options: PairOptions): Promise<Pairing> {
  const platform = process.platform as AgentPlatform;
  if (!AGENT_PLATFORMS.includes(platform)) throw new Error(`${process.platform} is not a platform the agent runs on.`);
  const sleep = options.sleep ?? wait;
  const code = await options.api.deviceCode({
    name: (options.name ?? os.hostname()).slice(0, 100) || 'computer',
    platform,
    agentVersion: options.agentVersion,
  });
  options.print(`To connect this computer to Sundial, open\n\n  ${code.verificationUriComplete}\n`);
  options.print(`and check that it shows the code ${code.userCode} (or open ${code.verificationUri} and type it).`);
  options.print('Waiting for your approval…');

  let interval = code.interval * 1000;
  const expiresAt = Date.now() + code.expiresIn * 1000;
  while (Date.now() < expiresAt) {
    await sleep(interval);
    try {
      const token = await options.api.deviceToken(code.deviceCode);
      return { server: options.server, ...token, pairedAt: new Date().toISOString() };
    } catch (error) {
      if (error instanceof NetworkError) continue;
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'authorization_pending') continue;
      if (error.code === 'slow_down') {
        interval += 5000;
        continue;
      }
      if (error.code === 'access_denied') throw new Error('The pairing was refused in Sundial.');
      if (error.code === 'expired_token') break;
      throw error;
    }
  }
  throw new Error('The code expired before it was approved: run "sundial-agent pair" again.');
}
