import fs from 'node:fs';
import path from 'node:path';
import { FEATURES } from '@sundial/core';
import { describe, expect, it } from 'vitest';

/**
 * What we sell is true (issue 30): every plan feature, which the plan cards list (core's
 * PLAN_CARD_LINES), is checked by the API somewhere, with `assertFeature(actor, 'x')` or
 * `workspaceHasFeature(workspace, 'x', ...)`. A feature nothing checks is one we sell without
 * having it: it comes back to the plans when the code that gates it lands.
 */
const SRC = path.dirname(new URL(import.meta.url).pathname);
const GATE = /\b(?:assertFeature|workspaceHasFeature)\(\s*[^()]*?'([a-z_]+)'/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [fs.readFileSync(full, 'utf8')] : [];
  });
}

/** The features the API's code checks, from its gate calls. */
export function gatedFeatures(files: string[]): Set<string> {
  return new Set(files.flatMap((source) => [...source.matchAll(GATE)].map((match) => match[1] ?? '')));
}

describe('plan features', () => {
  it('reads a gate call, with the feature in any argument', () => {
    const found = gatedFeatures([
      "assertFeature(actor, 'invoicing');",
      "if (!workspaceHasFeature(ws, 'sso', now, billing)) return;",
      "const name = 'screenshots';",
    ]);
    expect([...found].sort()).toEqual(['invoicing', 'sso']);
  });

  it('each has a gate in the API: nothing is sold that does not exist', () => {
    const gated = gatedFeatures(sources(SRC));
    expect(FEATURES.filter((feature) => !gated.has(feature))).toEqual([]);
  });
});
