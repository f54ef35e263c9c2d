import { type RuledEntry, tagRuleProblem } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { validationError } from '../../platform/errors.js';
import { tagRulesRepository as repo } from './time-entries.tag-rules.repository.js';

/**
 * Advanced tags in the one write path for time: every write that sets an entry's project or tags
 * (timer start and stop, create, update, bulk update, import) checks the tag lists' rules here, in
 * its transaction, for all its entries in one statement (none without tags or project). The rules themselves are `tagRuleProblem`
 * in core; a broken one is a 422 on `tagIds` whose message names the list.
 */
export async function assertTagRules(tx: Db, workspaceId: string, entries: RuledEntry[], when = ''): Promise<void> {
  const tagIds = [...new Set(entries.flatMap((e) => e.tagIds))];
  const projectIds = [...new Set(entries.flatMap((e) => (e.projectId && e.stopped ? [e.projectId] : [])))];
  const { tags, required } = await repo.rulesFor(tx, workspaceId, tagIds, projectIds);
  for (const entry of entries) {
    const problem = tagRuleProblem(entry, tags, required, when);
    if (problem) throw validationError({ tagIds: problem });
  }
}
