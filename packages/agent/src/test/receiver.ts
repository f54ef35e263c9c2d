import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentConfigView, type AgentSpan, agentSpanBatch } from '@sundial/core/activity';

/**
 * A stand-in for the API's agent routes that implements only their documented contract
 * (packages/core/src/activity/agent.ts): the device flow, the settings, and span uploads that
 * keep each id once and answer `{ accepted, duplicates }`. The process tests run against the built
 * API (test/api-server.ts); this stays for what the real server cannot be made to show: a 503, an
 * upload held unanswered forever, a scripted device flow (the uploader's and pairing's unit tests),
 * and an away threshold under the server's 60 s minimum (agent.test.ts, the away-time test).
 */
export interface Receiver {
  url: string;
  token: string;
  config: AgentConfigView;
  /** Every span kept, by id. */
  stored: Map<string, AgentSpan>;
  /** Each upload: the ids it carried, and whether the agent was answered 2xx. */
  uploads: { ids: string[]; answered: boolean }[];
  /** Answer the next N uploads 503 (a server restarting). */
  failNext: number;
  /** Keep the spans of the upload with this index (0: the first), then never answer it (the agent is killed meanwhile). */
  holdUpload: number | null;
  held: Promise<void>;
  /** Spans with this app are refused 422, like spans in the future. */
  poisonApp: string | null;
  /** Device flow: polls answered `authorization_pending` before the token, the first `slow_down` when asked. */
  pendingPolls: number;
  slowDownFirst: boolean;
  tokenPolls: number[];
  close(): Promise<void>;
}

export async function startReceiver(config: Partial<AgentConfigView> = {}): Promise<Receiver> {
  let releaseHeld: () => void = () => {};
  const receiver: Receiver = {
    url: '',
    token: 'sdd_test-device-token',
    config: {
      workspaceId: 'w1',
      userId: 'u1',
      deviceId: 'd1',
      keep: 'titles',
      idleSeconds: 180,
      exclusions: [],
      serverTime: new Date().toISOString(),
      ...config,
    },
    stored: new Map(),
    uploads: [],
    failNext: 0,
    holdUpload: null,
    held: new Promise((resolve) => {
      releaseHeld = resolve;
    }),
    poisonApp: null,
    pendingPolls: 2,
    slowDownFirst: true,
    tokenPolls: [],
    close: async () => {},
  };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: http.ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { error: { code, message } });

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const route = `${req.method} ${req.url}`;
    if (route === 'POST /api/v1/agent/device-codes') {
      return send(res, 200, {
        deviceCode: 'device-secret',
        userCode: 'BCDF-GHJK',
        verificationUri: `${receiver.url}/devices`,
        verificationUriComplete: `${receiver.url}/devices?code=BCDF-GHJK`,
        expiresIn: 600,
        interval: 1,
      });
    }
    if (route === 'POST /api/v1/agent/device-token') {
      receiver.tokenPolls.push(Date.now());
      const poll = receiver.tokenPolls.length;
      if (body?.deviceCode !== 'device-secret') return refuse(res, 400, 'expired_token', 'Unknown code.');
      if (poll === 1 && receiver.slowDownFirst) return refuse(res, 400, 'slow_down', 'Slow down.');
      if (poll <= receiver.pendingPolls) return refuse(res, 400, 'authorization_pending', 'Not approved yet.');
      return send(res, 200, { token: receiver.token, deviceId: 'd1', workspaceId: 'w1', userId: 'u1' });
    }
    if (req.headers.authorization !== `Bearer ${receiver.token}`) {
      return refuse(res, 401, 'unauthenticated', 'This device token is not valid.');
    }
    if (route === 'GET /api/v1/agent/config')
      return send(res, 200, { ...receiver.config, serverTime: new Date().toISOString() });
    if (route === 'POST /api/v1/agent/spans') {
      const parsed = agentSpanBatch.safeParse(body);
      if (!parsed.success) return refuse(res, 422, 'validation_failed', parsed.error.message);
      const { spans } = parsed.data;
      const upload = { ids: spans.map((span) => span.id), answered: false };
      receiver.uploads.push(upload);
      if (receiver.failNext > 0) {
        receiver.failNext--;
        return refuse(res, 503, 'unavailable', 'Restarting.');
      }
      if (receiver.poisonApp && spans.some((span) => span.app === receiver.poisonApp)) {
        return refuse(res, 422, 'span_in_future', 'A span ends in the future.');
      }
      let accepted = 0;
      for (const span of spans) {
        if (receiver.stored.has(span.id)) continue;
        receiver.stored.set(span.id, span);
        accepted++;
      }
      if (receiver.uploads.length - 1 === receiver.holdUpload) {
        releaseHeld();
        return; // stored, never answered: the connection dies with the agent
      }
      res.on('finish', () => {
        upload.answered = true;
      });
      return send(res, 200, { accepted, duplicates: spans.length - accepted });
    }
    refuse(res, 404, 'not_found', `No route ${route}.`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
