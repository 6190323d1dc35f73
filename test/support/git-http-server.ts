// A git smart-HTTP server on 127.0.0.1 for push tests: node:http in front of native
// `git http-backend` (CGI), asking for a Basic-auth token the way GitHub does (401 without it;
// `anonymousRead` serves clones and fetches without one, as for a public repository). Every request
// is recorded with the Authorization header it carried, so tests count what reached the server.
// Bare repositories live under `root`, served at /<owner>/<name>.git.
import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitEnv, runGit } from './git-repo.js';

export interface ServedRequest {
  readonly method: string;
  readonly path: string;
  readonly service: string | null;
  /** The status answered; 0 for a request held unanswered (`stall`). */
  readonly status: number;
  /** Bytes of the request body. */
  readonly bytes: number;
  /** The Authorization header the request carried, or null. */
  readonly authorization: string | null;
}

export interface GitServerOptions {
  /** Clones and fetches (upload-pack) need no credentials; pushes still do. */
  readonly anonymousRead?: boolean;
}

export interface GitServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** The folder holding the bare repositories. */
  readonly root: string;
  readonly token: string;
  readonly requests: ServedRequest[];
  /** Called as each request arrives, before it is answered (a test's trigger: "when the Nth push comes"). */
  onArrival: ((r: { readonly method: string; readonly path: string; readonly service: string | null }) => void) | undefined;
  /** When it says so, a request is never answered (a server gone silent); its connection is held until close(). */
  stall: ((r: { method: string; path: string; service: string | null }) => boolean) | undefined;
  /** Makes an empty bare repository that accepts pushes; returns its path and URL. */
  bare(path: string): { dir: string; url: string };
  /** `-c http.extraHeader=…` arguments that let native git talk to this server. */
  authArgs(): string[];
  /**
   * The environment that makes this server GitHub's git server for scion, as a user would say it:
   * GITHUB_TOKEN, and GITHUB_SERVER_URL naming this origin (the only one the token goes to).
   */
  githubEnv(): { GITHUB_TOKEN: string; GITHUB_SERVER_URL: string };
  close(): Promise<void>;
}

export async function startGitServer(token = 'test-token', o: GitServerOptions = {}): Promise<GitServer> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'scion-remote-')));
  const requests: ServedRequest[] = [];
  const expected = `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  // GitLab's user name for a token over HTTPS.
  const gitlab = `Basic ${Buffer.from(`oauth2:${token}`).toString('base64')}`;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const service = u.searchParams.get('service') ?? /\/(git-[a-z-]+)$/.exec(u.pathname)?.[1] ?? null;
    served.onArrival?.({ method: req.method ?? 'GET', path: u.pathname, service });
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    const authorization = req.headers.authorization ?? null;
    const record = (status: number) => requests.push({ method: req.method ?? 'GET', path: u.pathname, service, status, bytes, authorization });
    // The scheme is case-insensitive (actions/checkout writes "basic").
    const given = /^basic\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (served.stall?.({ method: req.method ?? 'GET', path: u.pathname, service })) {
      // Recorded with status 0: asked, never answered.
      record(0);
      req.resume();
      return;
    }
    const open = o.anonymousRead === true && service === 'git-upload-pack';
    if (!open && `Basic ${given}` !== expected && `Basic ${given}` !== gitlab) {
      record(401);
      req.resume();
      res.writeHead(401, { 'www-authenticate': 'Basic realm="scion-test"', 'content-type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    const child = spawn('git', ['http-backend'], {
      env: {
        ...gitEnv(),
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'x-access-token',
        REMOTE_ADDR: '127.0.0.1',
        PATH_INFO: decodeURIComponent(u.pathname),
        QUERY_STRING: u.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    req.pipe(child.stdin);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // CGI output: header lines, a blank line, then the body.
    let head = Buffer.alloc(0);
    let headersSent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      const endLf = head.indexOf('\n\n');
      const cut = end >= 0 ? { at: end, len: 4 } : endLf >= 0 ? { at: endLf, len: 2 } : null;
      if (cut === null) return;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, cut.at).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      record(status);
      res.writeHead(status, headers);
      headersSent = true;
      res.write(head.subarray(cut.at + cut.len));
    });
    child.on('close', (code) => {
      if (!headersSent) {
        record(500);
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`git http-backend exited with ${code}: ${stderr}`);
      } else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const served: GitServer = {
    url,
    root,
    token,
    requests,
    onArrival: undefined,
    stall: undefined,
    bare(path: string) {
      const dir = join(root, path);
      runGit(root, 'init', '-q', '--bare', '-b', 'main', dir);
      runGit(dir, 'config', 'http.receivepack', 'true');
      runGit(dir, 'config', 'gc.auto', '0');
      return { dir, url: `${url}/${path}` };
    },
    authArgs: () => ['-c', `http.extraHeader=Authorization: ${expected}`],
    githubEnv: () => ({ GITHUB_TOKEN: token, GITHUB_SERVER_URL: url }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
  return served;
}
