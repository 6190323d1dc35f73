// A fake Anthropic Messages API on 127.0.0.1: the real SDK talks to it over HTTP through
// ANTHROPIC_BASE_URL. It records every request and answers /v1/messages from a scripted model;
// /v1/messages/batches (create, retrieve, results as JSONL) answers each batched request the same way.
import type Anthropic from '@anthropic-ai/sdk';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Messages request as the SDK sends it (parsed from its JSON). */
export type MessagesBody = Anthropic.Messages.MessageCreateParamsNonStreaming;
/** A Message Batches create request: each request's params are a Messages request. */
export type BatchBody = Anthropic.Messages.Batches.BatchCreateParams;

export interface Recorded<Body = unknown> {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body; null when the request had none. */
  readonly body: Body;
}

/** What the fake answers to one Messages request. */
export interface Reply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly json: unknown;
  /** Answer only after this long (the client may have given up by then). */
  readonly delayMs?: number;
  /** Never answer: the request stays open until the client hangs up (or the fake is closed). */
  readonly hang?: boolean;
}

export type Model = (body: MessagesBody) => Reply;

export interface FakeApi {
  readonly url: string;
  readonly requests: Recorded[];
  /** Only POST /v1/messages. */
  messages(): Recorded<MessagesBody>[];
  /** Only POST /v1/messages/batches (the batches created). */
  batches(): Recorded<BatchBody>[];
  /** Requests whose client hung up before the answer was sent (an aborted request). */
  abandoned(): number;
  close(): Promise<void>;
}

export interface FakeOptions {
  /** Polls of a batch answered "in_progress" before it is "ended". Default 1. */
  readonly batchPolls?: number;
}

export async function fakeApi(model: Model, opts: FakeOptions = {}): Promise<FakeApi> {
  const requests: Recorded[] = [];
  const batches = new Map<string, { requests: BatchBody['requests']; polls: number }>();
  let url = '';
  let abandoned = 0;
  const server = createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) abandoned++;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body: unknown = raw === '' ? null : JSON.parse(raw);
      const path = (req.url ?? '').split('?')[0] as string;
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && path === '/v1/messages') {
        const r = model(body as MessagesBody);
        if (r.hang) return;
        if (r.delayMs) setTimeout(() => send(r.status ?? 200, r.json, r.headers), r.delayMs);
        else send(r.status ?? 200, r.json, r.headers);
        return;
      }
      if (req.method === 'POST' && path === '/v1/messages/batches') {
        const id = `msgbatch_${batches.size + 1}`;
        batches.set(id, { requests: (body as BatchBody).requests, polls: 0 });
        send(200, batchJson(id, 'in_progress', url));
        return;
      }
      const m = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/.exec(path);
      const batch = m ? batches.get(m[1] as string) : undefined;
      if (req.method === 'GET' && m && batch) {
        if (m[2]) {
          res.writeHead(200, { 'content-type': 'application/binary' });
          const lines = batch.requests.map((r) => {
            const reply = model(r.params);
            const result =
              (reply.status ?? 200) === 200
                ? { type: 'succeeded', message: reply.json }
                : { type: 'errored', error: { type: 'error', error: errorOf(reply.json) } };
            return JSON.stringify({ custom_id: r.custom_id, result });
          });
          // Results come back in no particular order: reversed, to prove custom_id is what matches.
          res.end(`${lines.reverse().join('\n')}\n`);
          return;
        }
        batch.polls++;
        send(200, batchJson(m[1] as string, batch.polls > (opts.batchPolls ?? 1) ? 'ended' : 'in_progress', url));
        return;
      }
      send(404, { type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    // The paths say what the SDK sent: the bodies are the SDK's own request types.
    messages: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages') as Recorded<MessagesBody>[],
    batches: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches') as Recorded<BatchBody>[],
    abandoned: () => abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `error` object of an error answer's JSON (`{ type: 'error', error: { type, message } }`). */
function errorOf(json: unknown): unknown {
  return typeof json === 'object' && json !== null && 'error' in json ? json.error : undefined;
}

function batchJson(id: string, status: 'in_progress' | 'ended', base: string) {
  return {
    id,
    type: 'message_batch',
    processing_status: status,
    request_counts: { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
    created_at: '2026-01-01T00:00:00Z',
    expires_at: '2026-01-02T00:00:00Z',
    ended_at: status === 'ended' ? '2026-01-01T00:01:00Z' : null,
    archived_at: null,
    cancel_initiated_at: null,
    results_url: status === 'ended' ? `${base}/v1/messages/batches/${id}/results` : null,
  };
}
