// A bare "remote" behind the test git HTTP server, seeded with one commit on main, and a work
// repository cloned from it over HTTP (so `origin` is the http URL and refs/remotes/origin/* exist).
import { execFile } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RemoteAccess } from '../../src/git/index.js';
import type { RunReport } from '../../src/model/types.js';
import { remoteAccess } from '../../src/host/remote.js';
import { scion } from './cli.js';
import { gitEnv, gitRepo, runGit, type RepoFile } from './git-repo.js';
import type { GitServer } from './git-http-server.js';
import type { Cleanup } from './cleanups.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

export interface Clone {
  readonly dir: string;
  git(...args: string[]): string;
  /** Native git without blocking the event loop: for commands that talk to the in-process server. */
  gitAsync(...args: string[]): Promise<string>;
}

/** Native git, asynchronously (a synchronous call would block the test's own HTTP server). */
export function gitAsync(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv(), encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
      else resolve(stdout.trimEnd());
    });
  });
}

export interface Remote {
  readonly dir: string;
  readonly url: string;
  git(...args: string[]): string;
  /** A new clone of the remote (native git over HTTP), with its own identity. */
  clone(identity?: { name: string; email: string }): Promise<Clone>;
}

let counter = 0;

export async function makeRemote(server: GitServer, files: Record<string, RepoFile>, cleanups: Cleanup[]): Promise<Remote> {
  const bare = server.bare(`acme/widgets-${++counter}.git`);
  const seed = await gitRepo(files);
  cleanups.push(seed.cleanup);
  await gitAsync(seed.dir, ...server.authArgs(), 'push', '-q', bare.url, 'main');
  const remote: Remote = {
    ...bare,
    git: (...args) => runGit(bare.dir, ...args),
    clone: async (identity = { name: 'Test User', email: 'test@example.com' }) => {
      const dir = join(await realpath(await mkdtemp(join(tmpdir(), 'scion-clone-'))), 'work');
      cleanups.push(() => rm(join(dir, '..'), { recursive: true, force: true }));
      await gitAsync(join(dir, '..'), ...server.authArgs(), 'clone', '-q', bare.url, dir);
      const git = (...args: string[]) => runGit(dir, ...args);
      git('config', 'user.name', identity.name);
      git('config', 'user.email', identity.email);
      git('config', 'commit.gpgsign', 'false');
      git('config', 'gc.auto', '0');
      return { dir, git, gitAsync: (...args: string[]) => gitAsync(dir, ...args) };
    },
  };
  return remote;
}

/** The remote's path on its server without `.git`: GitHub's owner/name, GitLab's project path. */
export function remotePath(remote: Pick<Remote, 'url'>): string {
  return new URL(remote.url).pathname.replace(/^\/|\.git$/g, '');
}

export interface GitHubRemote {
  readonly remote: Remote;
  /** A clone of the remote to run scion in. */
  readonly work: Clone;
  /** The fake GitHub API of the remote's repository, closed after the test. */
  readonly github: FakeGitHub;
  /** What scion needs to push there and open pull requests: the server as GitHub's, GITHUB_API_URL the fake. */
  readonly env: Record<string, string>;
  readonly owner: string;
  readonly repo: string;
}

/** A remote on `server` seeded with `files`, a clone of it, and a fake GitHub API for its repository. */
export async function githubRemote(server: GitServer, files: Record<string, RepoFile>, cleanups: Cleanup[]): Promise<GitHubRemote> {
  const remote = await makeRemote(server, files, cleanups);
  const work = await remote.clone();
  const [owner, repo] = remotePath(remote).split('/') as [string, string];
  const github = await startFakeGitHub(owner, repo);
  cleanups.push(() => github.close());
  return { remote, work, github, env: { ...server.githubEnv(), GITHUB_API_URL: github.url }, owner, repo };
}

export interface RunResult {
  readonly code: number;
  readonly report: RunReport;
  readonly stderr: string;
}

/** `scion run RECIPE --repo DIR --json ARGS…` with the server as GitHub's (its token) unless `env` says otherwise. */
export async function runJson(server: GitServer, dir: string, recipe: string, args: string[], env?: Record<string, string | undefined>): Promise<RunResult> {
  const res = await scion(['run', recipe, '--repo', dir, '--json', ...args], { cwd: dir, env: env ?? server.githubEnv() });
  expect(res.stderr).not.toContain('internal error');
  return { code: res.code, report: JSON.parse(res.stdout) as RunReport, stderr: res.stderr };
}

/** The receive-pack POSTs (pushes that reached git) the server answered since `from`. */
export function pushesSince(server: GitServer, from: number): number {
  return server.requests.slice(from).filter((r) => r.method === 'POST' && r.service === 'git-receive-pack').length;
}

/** How scion reaches `url` on `server`, with the server's token as the credential rule gives it. */
export function accessTo(server: GitServer, url: string, more: Partial<RemoteAccess> = {}): RemoteAccess {
  return { ...remoteAccess(url, server.githubEnv()).access, ...more };
}
