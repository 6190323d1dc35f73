// One API URL for many fake GitHubs, as api.github.com is one host for every repository: each
// request under /repos/<owner>/<name> goes to that repository's own fake (startFakeGitHub), anything
// else goes to `rest` (the organisation's repository list and search, when a test serves them) or
// answers 404.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

export interface FakeGitHubRouter {
  /** http://127.0.0.1:PORT, the GITHUB_API_URL every repository shares. */
  readonly url: string;
  close(): Promise<void>;
}

/** `fakes` maps a repository name under `owner` to its fake; looked up per request, so it may grow. */
export async function startFakeGitHubRouter(owner: string, fakes: Readonly<Record<string, FakeGitHub>>, rest?: FakeGitHub): Promise<FakeGitHubRouter> {
  const route = new RegExp(`^/repos/${owner}/([^/?]+)`);
  let own = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = route.exec(req.url ?? '');
      const name = m?.[1] ?? '';
      const fake = m === null ? rest : Object.hasOwn(fakes, name) ? fakes[name] : undefined;
      if (!fake) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      fetch(`${fake.url}${req.url}`, { method: req.method!, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) }).then(
        async (reply) => {
          // The repository's own answer, headers and all (ETags, retry-after, Link).
          const back: Record<string, string> = {};
          reply.headers.forEach((v, k) => {
            // A Link names the repository's own fake: the router's URL stands for it.
            if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive' && k !== 'date')
              back[k] = v.split(fake.url).join(own);
          });
          res.writeHead(reply.status, back);
          res.end(Buffer.from(await reply.arrayBuffer()));
        },
        (err: unknown) => res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(err) })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: own,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface FakeGitHubs {
  /** The one GITHUB_API_URL of every repository. */
  readonly url: string;
  /** Each repository's own fake, by name. */
  readonly fakes: Readonly<Record<string, FakeGitHub>>;
  /** Serves what is not under /repos/<owner>/…: the organisation's repository list, the search. */
  readonly rest: FakeGitHub;
  close(): Promise<void>;
}

/** A fake GitHub for each of `names` under `owner`, and `rest`, behind one router (one API URL). */
export async function startFakeGitHubs(owner: string, names: readonly string[]): Promise<FakeGitHubs> {
  const fakes: Record<string, FakeGitHub> = {};
  for (const name of names) fakes[name] = await startFakeGitHub(owner, name);
  const rest = await startFakeGitHub(owner, 'discovery');
  const router = await startFakeGitHubRouter(owner, fakes, rest);
  return {
    url: router.url,
    fakes,
    rest,
    close: async () => {
      await router.close();
      for (const f of [...Object.values(fakes), rest]) await f.close();
    },
  };
}
