import manifest from '../package.json' with { type: 'json' };

/** The agent's version, from its package.json (bundled into sundial-agent.mjs at build). */
export const AGENT_VERSION: string = manifest.version;
