import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGNED_IN_PATHS, titleForPath } from './nav';

// The router module builds a browser router when imported, so its route table is read as text.
const routerSource = fs.readFileSync(path.join(import.meta.dirname, '../router.tsx'), 'utf8');
const homepageBlock = routerSource.slice(routerSource.indexOf("path: '/homepage'"));
const childPaths = [...homepageBlock.matchAll(/path: '([^'*/][^']*)'/g)].map((m) => `/homepage/${m[1]}`);

describe('SIGNED_IN_PATHS', () => {
  it('lists every page the router serves under /homepage', () => {
    expect(childPaths.length).toBeGreaterThan(10);
    for (const page of childPaths) expect(SIGNED_IN_PATHS).toContain(page);
  });

  it('gives each of them a title of its own', () => {
    for (const page of SIGNED_IN_PATHS) expect(titleForPath(page)).not.toBe('Sundial');
  });
});
