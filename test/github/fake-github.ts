// A local stand-in for api.github.com: records every request and answers from a small pull-request
// store, with hooks to inject failures (rate limits, bad tokens).
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

export interface FakePull {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  state: 'open' | 'closed';
  labels: string[];
}

type Reply = { status: number; headers?: Record<string, string>; body?: unknown };

export interface FakeGitHub {
  readonly url: string;
  readonly requests: Recorded[];
  readonly pulls: FakePull[];
  /** Called first for each request; a reply short-circuits the normal handling. */
  intercept: ((r: Recorded) => Reply | undefined) | undefined;
  close(): Promise<void>;
}

export async function startFakeGitHub(owner: string, repo: string): Promise<FakeGitHub> {
  const requests: Recorded[] = [];
  const pulls: FakePull[] = [];
  const prefix = `/repos/${owner}/${repo}`;
  const htmlUrl = (n: number) => `https://github.example/${owner}/${repo}/pull/${n}`;
  const json = (p: FakePull) => ({ number: p.number, html_url: htmlUrl(p.number), title: p.title, body: p.body, draft: p.draft });

  function route(r: Recorded): Reply {
    if (r.method === 'GET' && r.path === `${prefix}/pulls`) {
      const head = r.query.get('head') ?? '';
      const state = r.query.get('state') ?? 'open';
      return { status: 200, body: pulls.filter((p) => `${owner}:${p.head}` === head && p.state === state).map(json) };
    }
    if (r.method === 'POST' && r.path === `${prefix}/pulls`) {
      const b = r.body as { title: string; head: string; base: string; body: string; draft?: boolean };
      if (pulls.some((p) => p.head === b.head && p.state === 'open')) {
        return { status: 422, body: { message: 'Validation Failed', errors: [{ message: `A pull request already exists for ${owner}:${b.head}.` }] } };
      }
      const p: FakePull = { number: 100 + pulls.length, head: b.head, base: b.base, title: b.title, body: b.body, draft: b.draft === true, state: 'open', labels: [] };
      pulls.push(p);
      return { status: 201, body: json(p) };
    }
    const patch = new RegExp(`^${prefix}/pulls/(\\d+)$`).exec(r.path);
    if (r.method === 'PATCH' && patch) {
      const p = pulls.find((x) => x.number === Number(patch[1]));
      if (!p) return { status: 404, body: { message: 'Not Found' } };
      Object.assign(p, r.body as object);
      return { status: 200, body: json(p) };
    }
    const labels = new RegExp(`^${prefix}/issues/(\\d+)/labels$`).exec(r.path);
    if (r.method === 'POST' && labels) {
      const p = pulls.find((x) => x.number === Number(labels[1]));
      if (!p) return { status: 404, body: { message: 'Not Found' } };
      for (const l of (r.body as { labels: string[] }).labels) if (!p.labels.includes(l)) p.labels.push(l);
      return { status: 200, body: p.labels.map((name) => ({ name })) };
    }
    return { status: 404, body: { message: 'Not Found' } };
  }

  const fake: FakeGitHub = {
    url: '',
    requests,
    pulls,
    intercept: undefined,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = Buffer.concat(chunks).toString('utf8');
      const r: Recorded = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body: raw === '' ? undefined : JSON.parse(raw), at: Date.now() };
      requests.push(r);
      const reply = fake.intercept?.(r) ?? route(r);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (fake as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
