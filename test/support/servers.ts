// The loopback servers tests talk to, each started and stopped by one helper that registers its own
// vitest hooks: a test file says which servers it needs in one line and never copies a
// beforeAll/afterAll pair. `use…` helpers give a handle that stands for the server once the hook has
// started it; `…AfterEach` helpers start one inside a test and close it after that test.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { fakeApi, type FakeApi } from '../agent/fake-api.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { startFakeGitHubs, type FakeGitHubs } from './fake-github-router.js';
import { startFakeGitLab, type FakeGitLab } from '../publish/fake-gitlab.js';
import { startGitServer, type GitServer, type GitServerOptions } from './git-http-server.js';
import { cleanupAfterEach } from './cleanups.js';

/** Per test (a fresh server for each, the default) or per file (one server the file's tests share). */
export type Scope = 'each' | 'all';

interface Closable {
  close(): Promise<void>;
}

/**
 * A handle standing for what `start` makes in a before-hook, stopped in the matching after-hook.
 * Reading or setting a property before the hook ran (at a test file's top level) throws, saying so.
 */
function served<T extends Closable>(what: string, scope: Scope, start: () => Promise<T>): T {
  let current: T | undefined;
  const [before, after] = scope === 'all' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    current = await start();
  });
  after(async () => {
    const c = current;
    current = undefined;
    await c?.close();
  });
  const now = (): T => {
    if (current === undefined) throw new Error(`${what} is used outside a test: it is started by a before-hook, so use it inside it() or a hook.`);
    return current;
  };
  return new Proxy({} as T, {
    get: (_t, key) => {
      const target = now();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set: (_t, key, value) => Reflect.set(now(), key, value),
    has: (_t, key) => Reflect.has(now(), key),
    // Spreading the handle (`{ ...server }`) copies the server's own fields.
    ownKeys: () => Reflect.ownKeys(now()),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(now(), key);
      return d === undefined ? undefined : { ...d, configurable: true };
    },
  });
}

/** The git smart-HTTP server (native git http-backend), one for the file's tests unless `scope` says 'each'. */
export function useGitServer(token?: string, o: GitServerOptions & { scope?: Scope } = {}): GitServer {
  const { scope = 'all', ...options } = o;
  return served('the git server', scope, () => startGitServer(token, options));
}

/** A fake GitHub API serving owner/repo, fresh for each test unless `scope` says 'all'. */
export function useFakeGitHub(owner: string, repo: string, scope: Scope = 'each'): FakeGitHub {
  return served(`the fake GitHub of ${owner}/${repo}`, scope, () => startFakeGitHub(owner, repo));
}

/** Fake GitHubs for `names` under `owner` behind one API URL (as api.github.com is), fresh for each test unless `scope` says 'all'. */
export function useFakeGitHubs(owner: string, names: readonly string[], scope: Scope = 'each'): FakeGitHubs {
  return served(`the fake GitHubs of ${owner}`, scope, () => startFakeGitHubs(owner, names));
}

/** A fake GitLab API serving `project`, fresh for each test unless `scope` says 'all'. */
export function useFakeGitLab(project: string, scope: Scope = 'each'): FakeGitLab {
  return served(`the fake GitLab of ${project}`, scope, () => startFakeGitLab(project));
}

/** `start` for use inside tests: each thing it starts is closed after the test that started it. */
function closedAfterEach<A extends unknown[], T extends Closable>(start: (...a: A) => Promise<T>): (...a: A) => Promise<T> {
  const cleanups = cleanupAfterEach();
  return async (...a) => {
    const made = await start(...a);
    cleanups.push(() => made.close());
    return made;
  };
}

/** startFakeGitHub, each fake closed after the test that started it. */
export function fakeGitHubsAfterEach(): typeof startFakeGitHub {
  return closedAfterEach(startFakeGitHub);
}

/** startFakeGitHubs, the fakes and their router closed after the test that started them. */
export function fakeGitHubsRoutedAfterEach(): typeof startFakeGitHubs {
  return closedAfterEach(startFakeGitHubs);
}

/** startFakeGitLab, each fake closed after the test that started it. */
export function fakeGitLabsAfterEach(): typeof startFakeGitLab {
  return closedAfterEach(startFakeGitLab);
}

/** The fake Messages API (test/agent/fake-api.ts), each one closed after the test that started it. */
export function fakeApisAfterEach(): (...a: Parameters<typeof fakeApi>) => Promise<FakeApi> {
  return closedAfterEach(fakeApi);
}
