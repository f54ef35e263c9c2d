import { ACTIVITY_KEEP, type ActivityKeep } from './agent.js';

/** What a person's computer time is kept as, and whether their manager reads it. */
export interface ActivityPrivacy {
  keep: ActivityKeep;
  managersSeeActivity: boolean;
}

/** A group's own choice; null is "as the workspace". */
export interface ActivityPrivacyOverride {
  keep: ActivityKeep | null;
  managersSeeActivity: boolean | null;
}

/**
 * A person's privacy from the workspace's settings and those of the groups they are in: each
 * setting a group chose replaces the workspace's, and where their groups chose differently the most
 * private choice wins (the least kept; managers see only when none of the groups that chose says no).
 */
export function personalPrivacy(
  workspace: ActivityPrivacy,
  groups: readonly ActivityPrivacyOverride[],
): ActivityPrivacy {
  const keeps = groups.flatMap((g) => (g.keep === null ? [] : [ACTIVITY_KEEP.indexOf(g.keep)]));
  const sees = groups.flatMap((g) => (g.managersSeeActivity === null ? [] : [g.managersSeeActivity]));
  return {
    keep: keeps.length > 0 ? (ACTIVITY_KEEP[Math.min(...keeps)] ?? 'apps') : workspace.keep,
    managersSeeActivity: sees.length > 0 ? sees.every(Boolean) : workspace.managersSeeActivity,
  };
}
