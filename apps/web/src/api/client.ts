import { type ApiAnswer, type ApiBody, type ApiParamName, type ApiRoute, isApiErrorBody } from '@sundial/core';

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

/** A query string: as written, as URLSearchParams, or as values (those undefined or null are left out). */
export type ApiQuery = string | URLSearchParams | Record<string, string | number | boolean | null | undefined>;

/**
 * What a call of `route` sends: its path parameters by the route's own names, its body as the
 * route's schema takes it (core's api-routes.ts), a query, and the options.
 */
export type ApiRequest<K extends ApiRoute> = ([ApiParamName<K>] extends [never]
  ? { params?: undefined }
  : { params: Record<ApiParamName<K>, string> }) &
  (ApiBody<K> extends undefined ? { body?: undefined } : { body: ApiBody<K> }) & { query?: ApiQuery } & ApiOptions;

/** The request is optional for a route without parameters or body. */
type ApiArgs<K extends ApiRoute> = object extends ApiRequest<K> ? [request?: ApiRequest<K>] : [request: ApiRequest<K>];

interface AnyRequest extends ApiOptions {
  params?: Record<string, string>;
  query?: ApiQuery;
  body?: unknown;
}

/** `GET /me` as its method and its path. */
const partsOf = (route: ApiRoute) => {
  const space = route.indexOf(' ');
  return { method: route.slice(0, space), path: route.slice(space + 1) };
};

/** The route's URL under /api/v1: its parameters filled in (encoded) and the query after them. */
function urlOf(path: string, { params = {}, query }: AnyRequest): string {
  const filled = path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const search =
    query === undefined || typeof query === 'string' || query instanceof URLSearchParams
      ? String(query ?? '')
      : new URLSearchParams(
          Object.entries(query).flatMap(([key, value]) => (value == null ? [] : [[key, String(value)]])),
        ).toString();
  return `/api/v1${filled}${search ? `?${search}` : ''}`;
}

/** The URL of a route the browser opens itself (a link to a file, an EventSource). */
export const apiUrl = <K extends ApiRoute>(route: K, request: ApiRequest<K>): string =>
  urlOf(partsOf(route).path, request as AnyRequest);

/**
 * The one client of the API: a route of core's table (`'GET /workspaces/:workspaceId/projects'`),
 * typed by it, so a renamed route or a wrong body fails the type check. JSON in and out, the
 * session cookie, errors as ApiError.
 */
export async function api<K extends ApiRoute>(route: K, ...[request]: ApiArgs<K>): Promise<ApiAnswer<K>> {
  const { params, query, body, ...options }: AnyRequest = request ?? {};
  const { method, path } = partsOf(route);
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey !== undefined) {
    headers['idempotency-key'] = options.idempotencyKey === true ? crypto.randomUUID() : options.idempotencyKey;
  }
  return send<ApiAnswer<K>>(urlOf(path, { params, query }), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Sends a file as the raw body (the browser streams it), for routes that read it as it comes. */
export function upload<K extends ApiRoute>(
  route: K,
  request: ApiRequest<K>,
  file: Blob,
  type = 'text/csv',
): Promise<ApiAnswer<K>> {
  const { method, path } = partsOf(route);
  return send<ApiAnswer<K>>(urlOf(path, request as AnyRequest), {
    method,
    headers: { 'content-type': type },
    body: file,
  });
}

/**
 * Downloads a file the API answers with (an export): fetched with the session cookie, then saved
 * under the name the server gives. A refusal throws ApiError with the server's message, so the
 * screen can say why instead of opening an error page.
 */
export async function download<K extends ApiRoute>(
  route: K,
  request: ApiRequest<K>,
  fallbackName: string,
  /** Told the bytes received so far as the file arrives (a large export takes seconds). */
  onProgress?: (bytes: number) => void,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(urlOf(partsOf(route).path, request as AnyRequest), { credentials: 'same-origin' });
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
  const url = URL.createObjectURL(await readAll(response, onProgress));
  const link = document.createElement('a');
  link.href = url;
  link.download = decodeURIComponent(name);
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file to the browser; the object URL can go once it has read it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The answer's body as a blob, read piece by piece when someone follows the progress. */
async function readAll(response: Response, onProgress?: (bytes: number) => void): Promise<Blob> {
  const reader = onProgress ? response.body?.getReader() : undefined;
  if (!reader || !onProgress) return response.blob();
  const pieces: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    bytes += value.byteLength;
    onProgress(bytes);
  }
  return new Blob(pieces as BlobPart[], { type: response.headers.get('content-type') ?? '' });
}

async function send<T>(url: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, credentials: 'same-origin' });
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
