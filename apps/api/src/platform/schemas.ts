import { z } from 'zod';

/** The error body, for OpenAPI. */
export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

export const messageBody = z.object({ message: z.string() });

export const errorResponses = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  410: errorBody,
  422: errorBody,
  429: errorBody,
} as const;

/** The workspace of a tenant URL; a malformed id answers like an unknown one. */
export const workspaceId = z.uuid({ error: 'Workspace not found.' });

/** `/workspaces/:workspaceId/...`: extend it for routes with more path parameters. */
export const workspaceParams = z.object({ workspaceId });
