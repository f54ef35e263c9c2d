import { z } from 'zod';

/**
 * Advanced tags (Pro): the rules a tag list may carry, and the one pure check every write of time
 * (timer, manual entry, bulk edit, import, API) runs against them.
 *
 * - exclusive: an entry carries at most one tag of the list ("pick one");
 * - restricted: the list's tags may only be used on `projectIds` (empty: on every project);
 * - required: a stopped entry of a project in `requiredProjectIds` carries at least one of its tags.
 */
export const tagListRulesBody = z.object({
  exclusive: z.boolean(),
  projectIds: z.array(z.uuid()).max(1000),
  requiredProjectIds: z.array(z.uuid()).max(1000),
});
export type TagListRulesInput = z.infer<typeof tagListRulesBody>;

/** The tag lists a project requires, as set from the project's side. */
export const projectRequiredTagListsBody = z.object({ tagListIds: z.array(z.uuid()).max(200) });
export const projectRequiredTagListsView = projectRequiredTagListsBody;
export type ProjectRequiredTagLists = z.infer<typeof projectRequiredTagListsView>;

/** Whether turning these rules on needs the advanced_tags feature (turning them off never does). */
export const tagRulesTurnOn = (r: { exclusive: boolean; projectIds: readonly string[] }, required: number) =>
  r.exclusive || r.projectIds.length > 0 || required > 0;

/** A tag an entry carries, with what its list says. */
export interface RuledTag {
  id: string;
  name: string;
  listId: string;
  listName: string;
  exclusive: boolean;
  /** The projects the list is restricted to; empty: every project. */
  listProjectIds: readonly string[];
}

/** A tag list that a project requires. */
export interface RequiredTagList {
  projectId: string;
  listId: string;
  listName: string;
}

export interface RuledEntry {
  projectId: string | null;
  tagIds: readonly string[];
  /** Required lists are checked on stopped entries only (a running timer is finished later). */
  stopped: boolean;
}

/**
 * What is wrong with an entry's tags under the lists' rules, as a sentence naming the list, or
 * null when nothing is. `when` ends the required-list sentence (" before stopping the timer").
 */
export function tagRuleProblem(
  entry: RuledEntry,
  tags: readonly RuledTag[],
  required: readonly RequiredTagList[],
  when = '',
): string | null {
  const carried = [...new Set(entry.tagIds)]
    .map((id) => tags.find((t) => t.id === id))
    .filter((t): t is RuledTag => t !== undefined);
  for (const tag of carried) {
    if (tag.listProjectIds.length === 0) continue;
    if (entry.projectId && tag.listProjectIds.includes(entry.projectId)) continue;
    return entry.projectId
      ? `Tags of "${tag.listName}" cannot be used on this project: remove "${tag.name}".`
      : `Tags of "${tag.listName}" are for some projects only: choose one of them, or remove "${tag.name}".`;
  }
  for (const tag of carried) {
    if (!tag.exclusive) continue;
    const other = carried.find((t) => t.listId === tag.listId && t.id !== tag.id);
    if (other) return `Pick only one tag from "${tag.listName}": "${tag.name}" and "${other.name}" exclude each other.`;
  }
  if (!entry.stopped || !entry.projectId) return null;
  for (const list of required) {
    if (list.projectId !== entry.projectId) continue;
    if (carried.some((t) => t.listId === list.listId)) continue;
    return `This project needs a tag from "${list.listName}": pick one${when}.`;
  }
  return null;
}
