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

export interface ApiOptions {
  /**
   * Sent as Idempotency-Key, so a retried write (timer start or stop, a new entry) happens once.
   * Pass `true` for a fresh key, or a key of your own to repeat the very same request.
   */
  idempotencyKey?: string | true;
}

/** The one client of the API: JSON in and out, the session cookie, errors as ApiError. */
export async function api<T>(method: string, path: string, body?: unknown, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey !== undefined) {
    headers['idempotency-key'] = options.idempotencyKey === true ? crypto.randomUUID() : options.idempotencyKey;
  }
  return send<T>(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Sends a file as the raw body (the browser streams it), for routes that read it as it comes. */
export function upload<T>(path: string, file: Blob, type = 'text/csv'): Promise<T> {
  return send<T>(path, { method: 'POST', headers: { 'content-type': type }, body: file });
}

async function send<T>(path: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { ...init, credentials: 'same-origin' });
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
