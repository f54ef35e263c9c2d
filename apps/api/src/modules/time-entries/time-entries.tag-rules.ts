import { type RequiredTagList, type RuledEntry, tagRuleProblem } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { validationError } from '../../platform/errors.js';
import { tagRulesRepository as repo } from './time-entries.tag-rules.repository.js';

/**
 * An entry to check; `required`: the lists its project requires, when the write read them with
 * its project (`resolveRefs`), so they are not read again.
 */
export type CheckedEntry = RuledEntry & { required?: readonly RequiredTagList[] };

/**
 * Advanced tags in the one write path for time: every write that sets an entry's project or tags
 * (timer start and stop, create, update, bulk update, import, tag merge) checks the tag lists' rules here, in
 * its transaction, for all its entries in one statement (none without tags or project). The rules themselves are `tagRuleProblem`
 * in core; a broken one is a 422 on `tagIds` whose message names the list.
 */
export async function assertTagRules(tx: Db, workspaceId: string, entries: CheckedEntry[], when = ''): Promise<void> {
  const problem = await problemOf(tx, workspaceId, entries);
  for (const entry of entries) {
    const found = problem(entry, when);
    if (found) throw validationError({ tagIds: found });
  }
}

/**
 * A change of many entries' tags made for them (a tag merge): 422 when it makes an entry break a
 * rule it kept before; an entry that broke one already (rules set after it was written) is let be.
 */
export async function assertTagRulesKept(
  tx: Db,
  workspaceId: string,
  changes: { before: RuledEntry; after: RuledEntry }[],
): Promise<void> {
  const problem = await problemOf(
    tx,
    workspaceId,
    changes.flatMap((c) => [c.before, c.after]),
  );
  for (const { before, after } of changes) {
    const found = problem(after);
    if (found && !problem(before)) throw validationError({ tagIds: found });
  }
}

/** Reads the rules of the entries' tags and projects once; returns the check of one entry. */
async function problemOf(tx: Db, workspaceId: string, entries: CheckedEntry[]) {
  const tagIds = [...new Set(entries.flatMap((e) => e.tagIds))];
  const known = new Map<string, readonly RequiredTagList[]>();
  for (const e of entries) if (e.projectId && e.stopped && e.required) known.set(e.projectId, e.required);
  const projectIds = [
    ...new Set(entries.flatMap((e) => (e.projectId && e.stopped && !known.has(e.projectId) ? [e.projectId] : []))),
  ];
  const read = await repo.rulesFor(tx, workspaceId, tagIds, projectIds);
  // Each project's lists come whole from one statement, in its order (the check reads them per project).
  const required = [...[...known.values()].flat(), ...read.required];
  return (entry: RuledEntry, when = '') => tagRuleProblem(entry, read.tags, required, when);
}
