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
  /** Further headers, e.g. a public link's secret (which must never travel in the URL). */
  headers?: Record<string, string>;
}

/** The one client of the API: JSON in and out, the session cookie, errors as ApiError. */
export async function api<T>(method: string, path: string, body?: unknown, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
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

/**
 * Downloads a file the API answers with (an export): fetched with the session cookie, then saved
 * under the name the server gives. A refusal throws ApiError with the server's message, so the
 * screen can say why instead of opening an error page.
 */
export async function download(path: string, fallbackName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check your connection and try again.');
  }
  if (!response.ok) {
    const data: unknown = await response.json().catch(() => undefined);
    if (isApiErrorBody(data))
      throw new ApiError(response.status, data.error.code, data.error.message, data.error.fields);
    throw new ApiError(response.status, 'unknown_error', GENERIC);
  }
  const name = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = decodeURIComponent(name);
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file to the browser; the object URL can go once it has read it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
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
