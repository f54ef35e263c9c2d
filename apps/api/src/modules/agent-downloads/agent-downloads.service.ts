import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { AgentReleaseView } from '@sundial/core';
import { AppError } from '../../platform/errors.js';

/** What `scripts/build-agent.mjs` writes beside the bundle. */
interface Manifest {
  version: string;
  bytes: number;
  sha256: string;
}

const FILE_NAME = 'sundial-agent.mjs';
const NODE_VERSIONS = '^20.19, ^22.12 or >= 24';
export const AGENT_DOWNLOAD_PATH = '/api/v1/agent/download';

/**
 * The desktop agent offered by this server (issue 35): the bundle `npm run build:agent` made and
 * the manifest beside it, read when asked (a rebuild is served without a restart). Nothing here
 * needs a sign-in: the agent is open source, and the person installs it before pairing.
 */
export function createAgentDownloads(deps: { distFile: string }) {
  const manifestFile = deps.distFile.replace(/\.mjs$/, '.json');

  async function manifest(): Promise<Manifest | null> {
    try {
      const [text, file] = await Promise.all([readFile(manifestFile, 'utf8'), stat(deps.distFile)]);
      const read = JSON.parse(text) as Manifest;
      // A manifest of another build than the file beside it (a build cut short) is not believed.
      return read.bytes === file.size ? read : null;
    } catch {
      return null;
    }
  }

  return {
    async release(): Promise<AgentReleaseView> {
      const found = await manifest();
      return {
        available: found !== null,
        version: found?.version ?? null,
        fileName: FILE_NAME,
        sizeBytes: found?.bytes ?? null,
        sha256: found?.sha256 ?? null,
        node: NODE_VERSIONS,
        downloadPath: AGENT_DOWNLOAD_PATH,
      };
    },

    /** The bundle as a stream, with what identifies it; 404 when this server has none. */
    async file(): Promise<{ stream: Readable; sizeBytes: number; sha256: string; fileName: string }> {
      const found = await manifest();
      if (!found) {
        throw new AppError(
          'agent_not_built',
          'This server offers no desktop agent: its operator builds it with npm run build:agent.',
          { status: 404 },
        );
      }
      return {
        stream: createReadStream(deps.distFile),
        sizeBytes: found.bytes,
        sha256: found.sha256,
        fileName: FILE_NAME,
      };
    },
  };
}

export type AgentDownloads = ReturnType<typeof createAgentDownloads>;
