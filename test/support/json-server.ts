// The HTTP side the fake hosts share (fake-github.ts, publish/fake-gitlab.ts): a server on 127.0.0.1
// that records every request, asks the fake for its reply and sends it as JSON. A read (GET answered
// 200) may carry a weak ETag over the text sent, and a request whose If-None-Match holds that tag may
// be answered 304 with no body, as a host serving conditional reads does.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
  readonly at: number;
}

/** `raw`: the body sent as it is (an HTML error page, JSON cut short), instead of `body` as JSON. */
export type Reply = { status: number; headers?: Record<string, string>; body?: unknown; raw?: string };

/** How reads are tagged: the hash of the tag, and whether a matching If-None-Match is answered 304. */
export interface ETags {
  readonly hash: 'sha1' | 'md5';
  readonly honoured: boolean;
}

export interface JsonServerOptions {
  /** Where each request is recorded, before it is answered. */
  readonly requests: Recorded[];
  /** The reply to a request; undefined: none at all (the client waits until it gives up). */
  readonly answer: (r: Recorded) => Reply | undefined;
  /** How reads are tagged now (null: no tag); asked at each request, so a test may change it. */
  readonly etags: () => ETags | null;
  /** Called for each read answered 304. */
  readonly notModified: () => void;
}

export interface JsonServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  close(): Promise<void>;
}

export async function startJsonServer(o: JsonServerOptions): Promise<JsonServer> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = Buffer.concat(chunks).toString('utf8');
      const r: Recorded = {
        method: req.method ?? 'GET',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body: raw === '' ? undefined : JSON.parse(raw),
        at: Date.now(),
      };
      o.requests.push(r);
      const reply = o.answer(r);
      if (reply === undefined) return;
      const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
      const etags = r.method === 'GET' && reply.status === 200 ? o.etags() : null;
      const tag = etags === null ? null : `W/"${createHash(etags.hash).update(text).digest('hex')}"`;
      if (tag !== null && etags?.honoured === true && req.headers['if-none-match'] === tag) {
        o.notModified();
        res.writeHead(304, { etag: tag }).end();
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json', ...(tag === null ? {} : { etag: tag }), ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
