import { API_KEY_AREA_TEXT, API_KEY_AREAS } from '@sundial/core';
import type { Config } from '../config.js';

/** One curl call per area of an API key, as the documentation shows them (each is run in api-keys.int.test.ts). */
export const API_KEY_EXAMPLES: Record<(typeof API_KEY_AREAS)[number], string> = {
  time: `curl -X POST -H "Authorization: Bearer $SUNDIAL_KEY" -H "Content-Type: application/json" \\
  -d '{"start":"2026-11-02T09:00:00Z","end":"2026-11-02T10:30:00Z","note":"Planning"}' \\
  $SUNDIAL/api/v1/workspaces/$WORKSPACE/time-entries`,
  projects: `curl -H "Authorization: Bearer $SUNDIAL_KEY" $SUNDIAL/api/v1/workspaces/$WORKSPACE/projects`,
  reports: `curl -H "Authorization: Bearer $SUNDIAL_KEY" \\
  "$SUNDIAL/api/v1/workspaces/$WORKSPACE/reports/summary?from=2026-11-01&to=2026-11-30&timeZone=UTC&groupBy=project"`,
  team: `curl -H "Authorization: Bearer $SUNDIAL_KEY" $SUNDIAL/api/v1/workspaces/$WORKSPACE/members`,
  billing: `curl -H "Authorization: Bearer $SUNDIAL_KEY" $SUNDIAL/api/v1/workspaces/$WORKSPACE/billing`,
};

/** The API documentation's introduction (/api/docs): how to authenticate, the areas, the limits. */
export function apiDescription(
  config: Pick<
    Config,
    'publicUrl' | 'API_KEY_REQUESTS_PER_MINUTE' | 'API_KEY_REPORTS_PER_MINUTE' | 'API_WORKSPACE_KEY_REQUESTS_PER_MINUTE'
  >,
): string {
  const areas = API_KEY_AREAS.map((area) => {
    const { label, covers } = API_KEY_AREA_TEXT[area];
    return `### ${label}\n\n${covers[0]?.toUpperCase()}${covers.slice(1)}.\n\n\`\`\`sh\n${API_KEY_EXAMPLES[area]}\n\`\`\``;
  }).join('\n\n');
  return `Time tracking, projects and reporting.

## Authentication

Make a personal API key in Sundial (Profile → API keys): name it, give it read or read & write
access to the areas it needs, and copy it (it is shown once). Send it on every call:

\`\`\`sh
export SUNDIAL=${config.publicUrl} SUNDIAL_KEY=sdl_…
curl -H "Authorization: Bearer $SUNDIAL_KEY" $SUNDIAL/api/v1/me          # who the key acts as
curl -H "Authorization: Bearer $SUNDIAL_KEY" $SUNDIAL/api/v1/workspaces  # their workspaces (ids)
\`\`\`

A key acts as the person who made it and never goes beyond their own access: a member's key sees
what the member sees. Read access allows GET; read & write allows the rest. A key cannot sign in,
manage keys, sessions, passwords, two-factor or SSO settings. Keys expire after 12 months unless
chosen otherwise (a reminder e-mail goes out 7 days before) and stop at once when revoked. In the
browser, the session cookie of \`POST /api/v1/auth/login\` authenticates the same routes.

## Limits

| What | Requests a minute |
| --- | --- |
| Each key | ${config.API_KEY_REQUESTS_PER_MINUTE} |
| Each key, to reports and exports | ${config.API_KEY_REPORTS_PER_MINUTE} |
| A workspace, across every key calling it | ${config.API_WORKSPACE_KEY_REQUESTS_PER_MINUTE} |

Every answer to a key carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`
(seconds until the minute ends) for the tightest limit that applies, and \`RateLimit-Policy\`. Past a
limit the answer is \`429\` with \`Retry-After\` in seconds.

## Paging

A list answers a page: \`items\`, \`total\` and \`nextCursor\` (null on the last page). Pass
\`cursor=<nextCursor>\` (and the same filters and order) for the next page: it goes on exactly after
the last row you got, even while others add or remove rows; \`limit\` sets the page size (at most 500).
The audit log and webhook deliveries page the same way; \`offset\` still works where it did, never
with a cursor.

\`\`\`sh
curl -H "Authorization: Bearer $SUNDIAL_KEY" "$SUNDIAL/api/v1/workspaces/$WORKSPACE/projects?limit=100&cursor=$NEXT"
\`\`\`

## Errors

Every failure answers \`{ "error": { "code", "message", "fields"? } }\`: 401 without a valid key or
session, 403 \`forbidden\` when the person may not, 403 \`key_scope\` when the key lacks the area, 404
for what does not exist or is not theirs to see, 422 with \`fields\` for bad input, 429 past a limit.

## What each area covers

${areas}

## Agent

The desktop agent (\`sundial-agent\`) pairs by device code (RFC 8628's flow, in the error shape
above): \`POST /api/v1/agent/device-codes\` (no sign-in) answers a \`userCode\` for the person and a
\`deviceCode\` the agent polls \`POST /api/v1/agent/device-token\` with, every \`interval\` seconds,
until the person approves at \`verificationUriComplete\` (400 \`authorization_pending\`,
\`slow_down\`, \`expired_token\` or \`access_denied\` before). The device token it receives
(\`sdd_…\`) opens \`GET /api/v1/agent/config\` and \`POST /api/v1/agent/spans\` only (403 elsewhere),
as its person in one workspace, until it is revoked (Profile → Computers) or they leave it. An
upload carries up to 1,000 spans, each stored once by its id (a repeated upload answers
\`duplicates\`); spans ending in the future, longer than 24 hours or overlapping another of the
computer's are refused with 422. The computer time routes under
\`/api/v1/workspaces/{workspaceId}/computer-time/\` read activity and are in the Time area.
`;
}
