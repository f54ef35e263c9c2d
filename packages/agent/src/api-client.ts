import {
  type AgentConfigView,
  type AgentSpan,
  type AgentSpanBatchResult,
  agentConfigView,
  agentSpanBatchResult,
  type DeviceCodeRequest,
  type DeviceCodeView,
  type DeviceTokenView,
  deviceCodeView,
  deviceTokenView,
} from '@sundial/core/activity';
import type { z } from 'zod';

/** The server answered, but not 2xx: `code` is the API's stable error code when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    /** From Retry-After (429, 503), in milliseconds. */
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/** No answer: the network, DNS, TLS, a timeout, or an answer that is not what the contract says. */
export class NetworkError extends Error {}

export interface AgentApi {
  deviceCode(body: DeviceCodeRequest): Promise<DeviceCodeView>;
  deviceToken(deviceCode: string): Promise<DeviceTokenView>;
  config(): Promise<AgentConfigView>;
  uploadSpans(spans: readonly AgentSpan[]): Promise<AgentSpanBatchResult>;
}

export interface ApiOptions {
  server: string;
  token?: string;
  userAgent: string;
  timeoutMs?: number;
}

/** The agent's side of the contract in `@sundial/core` (activity/agent.ts), over fetch. */
export function createApi(options: ApiOptions): AgentApi {
  const base = `${options.server.replace(/\/+$/, '')}/api/v1/agent`;

  async function call<T>(method: string, route: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { 'user-agent': options.userAgent, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let response: Response;
    try {
      response = await fetch(`${base}${route}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw new NetworkError(`${options.server} did not answer: ${(error as Error).message}`);
    }
    const text = await response.text().catch(() => '');
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): judged by its status below.
    }
    if (!response.ok) {
      const error = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new ApiError(
        response.status,
        typeof error?.code === 'string' ? error.code : null,
        typeof error?.message === 'string' ? error.message : `${method} ${route} answered ${response.status}`,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new NetworkError(`${method} ${route} answered something unexpected (${parsed.error.message})`);
    return parsed.data;
  }

  return {
    deviceCode: (body) => call('POST', '/device-codes', deviceCodeView, body),
    deviceToken: (deviceCode) => call('POST', '/device-token', deviceTokenView, { deviceCode }),
    config: () => call('GET', '/config', agentConfigView),
    uploadSpans: (spans) => call('POST', '/spans', agentSpanBatchResult, { spans }),
  };
}
