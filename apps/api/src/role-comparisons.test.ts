import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Access is decided in platform/access.ts by permissions in force (issue 32): a module that compares
 * a role's name ("role === 'admin'", "m.role in ('owner', 'admin')", a list of role names) decides
 * for the built-in roles only, and a custom role, which stores its base role, gets its base's
 * answer instead of its permissions'. This reads every module file for such comparisons. The ones
 * that are no access decision (the owner's own rules, which no custom role can hold; which role may
 * be given; display order) are listed in ALLOWED with why: a new one fails, and so does an entry
 * whose file no longer compares, so the list only shrinks.
 */

const SRC = path.dirname(new URL(import.meta.url).pathname);

const ROLE = `'(?:owner|admin|manager|member|guest)'`;
const COMPARISON = new RegExp(
  [
    // role === 'admin', roles.get(id) !== 'guest', 'owner' === role
    `[!=]==?\\s*${ROLE}`,
    `${ROLE}\\s*[!=]==?`,
    // Kysely: .where('m.role', 'in', [...]), .when('role', '=', 'owner')
    `['"](?:\\w+\\.)?role['"]\\s*,\\s*['"](?:=|!=|<>|in|not in)['"]`,
    // SQL text: m.role in ('owner', 'admin'), role <> 'owner'
    `\\b(?:\\w+\\.)?role\\s+(?:=|<>|!=|in|not\\s+in)\\s*\\(?\\s*${ROLE}`,
    // A list of role names: new Set<Role>(['member', 'guest']), ['owner', 'admin'].includes(...)
    `\\[\\s*${ROLE}\\s*,\\s*${ROLE}`,
  ].join('|'),
  'g',
);

/** Files that compare role names for something other than access, and why. */
const ALLOWED: Record<string, string> = {
  'modules/billing/billing.repository.ts': 'the owner is who receives the bills',
  'modules/invites/invites.service.ts': 'inviting as a Manager needs management roles on the plan (role given)',
  'modules/members/members.repository.ts': 'the owner is listed first',
  'modules/members/members.service.ts':
    'role changes: the owner is untouchable, leaves only by transferring ownership, Manager needs the plan',
  'modules/projects/projects.people.ts': 'guests never hold a "Can manage" grant (what may be given)',
  'modules/roles/roles.service.ts': 'the owner keeps every permission: no custom role is given to them',
  'modules/webhooks/webhooks.repository.ts':
    'a webhook delivers every record of the workspace, so only while its creator is an owner or admin, who see it all (webhooks:manage is in no custom role)',
  'modules/scim/scim.repository.ts': 'the identity provider never lists nor changes the owner',
  'modules/sso/sso.session-columns.ts': 'the owner is never locked out by "require SSO"',
  'modules/two-factor/two-factor.service.ts': 'only the owner resets the owner’s two-factor (ownership, no permission)',
};

interface SourceFile {
  /** Path relative to apps/api/src, with forward slashes. */
  path: string;
  source: string;
}

/** The files of `files` under modules/ that compare role names, with the comparisons found. */
export function roleComparisons(files: SourceFile[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    if (!file.path.startsWith('modules/')) continue;
    const matches = [...file.source.matchAll(COMPARISON)].map((m) => m[0]);
    if (matches.length > 0) found.set(file.path, matches);
  }
  return found;
}

/** Every comparison outside ALLOWED, and every ALLOWED file that no longer compares. */
export function comparisonViolations(found: Map<string, string[]>, allowed: Record<string, string>): string[] {
  const violations: string[] = [];
  for (const [file, matches] of found)
    if (!(file in allowed))
      violations.push(`${file}: ${matches.join('; ')} (decide in platform/access.ts by permissions)`);
  for (const file of Object.keys(allowed))
    if (!found.has(file)) violations.push(`${file}: in ALLOWED but compares no role name`);
  return violations;
}

function sourceFiles(): SourceFile[] {
  return fs
    .readdirSync(path.join(SRC, 'modules'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => ({
      path: `modules/${name.split(path.sep).join('/')}`,
      source: fs.readFileSync(path.join(SRC, 'modules', name), 'utf8'),
    }));
}

describe('role comparisons', () => {
  it('are made in modules only where ALLOWED says why they decide no access', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(comparisonViolations(roleComparisons(files), ALLOWED)).toEqual([]);
  });

  it('catch a role name compared in code, in Kysely and in SQL text, and an ALLOWED entry gone stale', () => {
    const files: SourceFile[] = [
      { path: 'modules/rates/rates.service.ts', source: "if (actor.membership.role !== 'manager') return;" },
      { path: 'modules/a/a.repository.ts', source: ".where('m.role', 'in', ['owner', 'admin'])" },
      { path: 'modules/b/b.locks.ts', source: "sql`and m.role in ('owner', 'admin')`" },
      { path: 'modules/c/c.service.ts', source: "const MOVES = new Set<Role>(['member', 'guest']);" },
      { path: 'modules/d/d.service.ts', source: "if ('owner' === who.role) return;" },
      { path: 'modules/e/e.service.ts', source: "if (allows(actor.membership, 'rates:manage')) return; // role" },
      { path: 'platform/access.ts', source: "if (who.role === 'owner') return;" },
    ];
    expect(comparisonViolations(roleComparisons(files), { 'modules/gone/gone.ts': 'was here' })).toEqual([
      "modules/rates/rates.service.ts: !== 'manager' (decide in platform/access.ts by permissions)",
      "modules/a/a.repository.ts: 'm.role', 'in'; ['owner', 'admin' (decide in platform/access.ts by permissions)",
      "modules/b/b.locks.ts: m.role in ('owner' (decide in platform/access.ts by permissions)",
      "modules/c/c.service.ts: ['member', 'guest' (decide in platform/access.ts by permissions)",
      "modules/d/d.service.ts: 'owner' === (decide in platform/access.ts by permissions)",
      'modules/gone/gone.ts: in ALLOWED but compares no role name',
    ]);
  });
});
