import { isApiErrorBody } from '@sundial/core';

/** An API failure with the server's code, message and per-field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

const GENERIC = 'Something went wrong. Please try again.';

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (isApiErrorBody(data)) {
      throw new ApiError(response.status, data.error.code, data.error.message, data.error.fields);
    }
    throw new ApiError(response.status, 'unknown_error', GENERIC);
  }
  return data as T;
}

/** The one way screens turn any thrown value into a message (and field messages) to show. */
export function parseApiError(error: unknown): { message: string; fields: Record<string, string>; code: string } {
  if (error instanceof ApiError) return { message: error.message, fields: error.fields, code: error.code };
  return { message: GENERIC, fields: {}, code: 'unknown_error' };
}
