import { sql } from 'kysely';

/**
 * The column the authentication query adds for "require SSO", on a session aliased `s` and a
 * membership aliased `m`: true when the workspace requires SSO of this member and this session was
 * not proved by its identity provider. It holds only for a member other than the owner who has
 * signed in through that provider at least once (a linked `workspace:<id>` identity): someone a
 * workspace only invited, or whose membership a stranger made, is never locked out by it, and
 * the person's other workspaces never are (issue 29).
 */
export const ssoUnprovedColumn = sql<boolean | null>`(
  m.role <> 'owner'
  and s.via_workspace_id is distinct from m.workspace_id
  and exists (select 1 from workspace_sso ws where ws.workspace_id = m.workspace_id and ws.require_sso)
  and exists (select 1 from user_identities ui
              where ui.user_id = m.user_id and ui.provider = 'workspace:' || m.workspace_id::text))`;
