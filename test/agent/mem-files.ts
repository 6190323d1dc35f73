// A small in-memory AgentFiles: a Map of path → bytes behind the core's own path check, a deny list,
// and git blob ids. The runner's real AgentFiles is exercised in runner.test.ts.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkPath } from '../../src/core/index.js';
import { fail, failure } from '../../src/errors.js';
import type { AgentEnv, AgentFiles, AgentStepConfig } from '../../src/agent/types.js';
import { globTest } from '../../src/recipe/globs.js';
import { cleanupAfterEach } from '../support/cleanups.js';

export interface MemFiles extends AgentFiles {
  readonly map: Map<string, Uint8Array>;
  readonly writes: string[];
  text(path: string): string | undefined;
}

export function memFiles(initial: Record<string, string | Uint8Array>, opts: { deny?: string[]; root?: string } = {}): MemFiles {
  const map = new Map<string, Uint8Array>(Object.entries(initial).map(([p, c]) => [p, typeof c === 'string' ? Buffer.from(c) : c]));
  const denied = globTest(opts.deny ?? [], { dot: true });
  const writes: string[] = [];
  return {
    map,
    writes,
    root: opts.root ?? null,
    text: (p) => (map.has(p) ? Buffer.from(map.get(p)!).toString('utf8') : undefined),
    paths: () => [...map.keys()].filter((p) => !denied(p)).sort(),
    guard: (raw) => {
      const r = checkPath(raw, { isDenied: denied });
      if (!r.ok) return r;
      return r.value.startsWith('vendor/') ? fail(failure('denied', `${r.value} is not in this job's files selection.`, { path: r.value })) : r;
    },
    read: async (p) => map.get(p) ?? null,
    write: async (p, bytes) => {
      writes.push(p);
      map.set(p, bytes);
    },
    engineOptions: () => ({ isDenied: denied }),
    blobId: (bytes) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex'),
  };
}

export function step(over: Partial<AgentStepConfig> = {}): AgentStepConfig {
  return { prompt: 'Rename foo to bar', per: 'file', maxTurns: 6, maxTokens: 1024, concurrency: 2, batch: false, ...over };
}

export const KEY = 'sk-ant-test-0123456789abcdef-SECRET';

export interface TestEnv extends AgentEnv {
  readonly logs: string[];
  cleanup(): Promise<void>;
  /** Every file under cacheDir, with its text. */
  cacheFiles(): Promise<{ name: string; text: string }[]>;
}

export async function testEnv(url: string | null, over: Partial<AgentEnv> & { vars?: Record<string, string | undefined> } = {}): Promise<TestEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'scion-agent-cache-'));
  const logs: string[] = [];
  const { vars, ...rest } = over;
  const env: Record<string, string | undefined> = { ANTHROPIC_API_KEY: KEY, ...(url === null ? {} : { ANTHROPIC_BASE_URL: url }), ...vars };
  return {
    env,
    cacheDir: join(dir, 'agent-cache'),
    cacheReadOnly: false,
    noCache: false,
    log: (m) => logs.push(m),
    client: { maxRetries: 0, batchPollMs: 5, batchPollMaxMs: 20 },
    ...rest,
    logs,
    cleanup: () => rm(dir, { recursive: true, force: true }),
    cacheFiles: async () => {
      const cacheDir = rest.cacheDir ?? join(dir, 'agent-cache');
      let names: string[];
      try {
        names = await readdir(cacheDir);
      } catch {
        return [];
      }
      return Promise.all(names.map(async (name) => ({ name, text: await readFile(join(cacheDir, name), 'utf8') })));
    },
  };
}

/** testEnv, each one's cache folder removed after the test that made it. */
export function testEnvsAfterEach(): typeof testEnv {
  const cleanups = cleanupAfterEach();
  return async (...args) => {
    const env = await testEnv(...args);
    cleanups.push(() => env.cleanup());
    return env;
  };
}
