// The step cache: a `run` step, or a verify command, whose command, environment and
// starting files are the same as in an earlier run is not run again; its recorded result is replayed.
//
// Key: sha256 over the command, the step's kind, the environment variables that may change what it
// does (see keyedEnv), the base tree id and the job's changes before the step (path → blob id and
// mode, or deletion). A shell command may read any file, so the step's input files are all of them:
// the base tree names the unchanged ones and the change list the rest, exactly and cheaply.
//
// Value: what the step changed (path → blob id and mode, or deletion), its exit status and the end of
// its output. The blobs live in git's own object store (content-addressed, deduplicated); an entry
// whose blobs are gone (pruned by `git gc`) is only a miss. Entries are JSON files named by their key
// under `.git/scion/step-cache/`, written to a temporary name and renamed into place, so two runs at
// once each see a whole entry or none. Past `maxBytes` the least recently used entries are removed.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readBlob, writeBlob, type Repo } from '../git/index.js';
import { compareCodeUnits } from '../util/compare.js';

const VERSION = 1;
export const DEFAULT_STEP_CACHE_BYTES = 32 * 1024 * 1024;
/** Output kept per entry: enough for the diagnostics of a failed command. */
export const MAX_CACHED_OUTPUT = 64 * 1024;
/** A temporary file older than this was left by a run that died; eviction removes it. */
const STALE_TMP_MS = 60 * 60 * 1000;

/**
 * Variables from the run's environment that take part in the key, besides every variable the recipe
 * gives the step itself (which always do) and scion's own SCION_*. They choose the toolchain and its
 * locale. Everything else is left out on purpose: CI run ids, timestamps, HOME and tokens differ on
 * every scheduled run (they would make each nightly run a miss) or are secrets. A toolchain upgraded
 * in place, under the same PATH, is not seen: `--no-cache` runs everything.
 */
export const KEYED_ENV: readonly string[] = ['PATH', 'NODE_ENV', 'NODE_OPTIONS', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'];

export type StepKind = 'run' | 'verify';

export interface FileRecord {
  readonly oid: string;
  readonly mode: string;
}

export interface KeyParts {
  readonly kind: StepKind;
  readonly command: string;
  /** From keyedEnv. */
  readonly env: Readonly<Record<string, string>>;
  readonly baseTree: string;
  /** The job's changes before the step: path → blob and mode, or null where the file was deleted. */
  readonly inputs: ReadonlyMap<string, FileRecord | null>;
}

/** The variables of `env` that take part in the key: all of `stepEnv`, SCION_*, and KEYED_ENV. */
export function keyedEnv(env: Readonly<Record<string, string | undefined>>, stepEnv: Readonly<Record<string, string>> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && (KEYED_ENV.includes(k) || k.startsWith('SCION_'))) out[k] = v;
  return { ...out, ...stepEnv };
}

export function stepKey(p: KeyParts): string {
  const sorted = (o: Readonly<Record<string, string>>) =>
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]);
  const inputs = [...p.inputs].sort(([a], [b]) => compareCodeUnits(a, b)).map(([path, f]) => [path, f === null ? null : [f.oid, f.mode]]);
  const material = JSON.stringify({ v: VERSION, kind: p.kind, command: p.command, env: sorted(p.env), base: p.baseTree, inputs });
  return createHash('sha256').update(material).digest('hex');
}

export type RecordedChange = { readonly path: string; readonly oid: string; readonly mode: string } | { readonly path: string; readonly deleted: true };

export interface StepResult {
  /** Exit status; null when killed or it could not start. */
  readonly status: number | null;
  readonly signal: string | null;
  /** The end of its output, secrets already masked by the caller (cached-command.ts): it is stored as given. */
  readonly output: string;
}

export interface StepCacheEntry extends StepResult {
  readonly version: typeof VERSION;
  readonly kind: StepKind;
  readonly command: string;
  readonly changes: readonly RecordedChange[];
}

/** A change as the step left it: the bytes (their blob is written on `put`), or a deletion. */
export type ChangeToRecord = { readonly path: string; readonly bytes: Uint8Array; readonly mode: string } | { readonly path: string; readonly deleted: true };

/** A hit: the entry and the bytes of every file it changed, read back from the object store. */
export interface StepCacheHit {
  readonly entry: StepCacheEntry;
  readonly files: ReadonlyMap<string, { readonly bytes: Uint8Array; readonly mode: string } | null>;
  /** The entry's file, for messages. */
  readonly file: string;
}

export interface StepCacheOptions {
  readonly repo: Repo;
  /** `.git/scion/step-cache` of the repository's common git dir. */
  readonly dir: string;
  /** Never write (a dry run keeps .git byte-identical). */
  readonly readOnly: boolean;
  /** Never read (--no-cache); results are still recorded. */
  readonly noRead: boolean;
  readonly maxBytes?: number;
}

export function stepCacheDir(commonGitDir: string): string {
  return join(commonGitDir, 'scion', 'step-cache');
}

export class StepCache {
  constructor(private readonly opts: StepCacheOptions) {}

  /**
   * The entry under `key`, with the bytes of every file it changed; null on a miss. An entry is data
   * read from disk that anyone may have edited: one that is not what `put` writes (its shape, a
   * path, a mode, a blob id) is ignored, and `warn` gets one line naming its file.
   */
  async get(key: string, warn: (message: string) => void = () => undefined): Promise<StepCacheHit | null> {
    if (this.opts.noRead) return null;
    const file = this.file(key);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return null;
    }
    const ignored = (why: string) => {
      warn(`step cache entry ${file} ${why}; ignored, the command runs instead`);
      return null;
    };
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // Torn (a run that died mid-write cannot leave one, but a full disk or a hand edit can).
      return ignored('is not valid JSON');
    }
    const entry = parseEntry(raw);
    if (typeof entry === 'string') return ignored(entry);
    const files = new Map<string, { bytes: Uint8Array; mode: string } | null>();
    for (const c of entry.changes) {
      if ('deleted' in c) {
        files.set(c.path, null);
        continue;
      }
      try {
        files.set(c.path, { bytes: await readBlob(this.opts.repo, c.oid), mode: c.mode });
      } catch {
        // The blob was pruned since: the command must run again.
        return null;
      }
    }
    if (!this.opts.readOnly) {
      // Recently used entries survive eviction.
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
    }
    return { entry, files, file };
  }

  async put(key: string, kind: StepKind, command: string, result: StepResult, changes: readonly ChangeToRecord[]): Promise<void> {
    if (this.opts.readOnly) return;
    const recorded: RecordedChange[] = [];
    for (const c of [...changes].sort((a, b) => compareCodeUnits(a.path, b.path))) {
      recorded.push('deleted' in c ? { path: c.path, deleted: true } : { path: c.path, oid: await writeBlob(this.opts.repo, c.bytes), mode: c.mode });
    }
    const entry: StepCacheEntry = {
      version: VERSION,
      kind,
      command,
      status: result.status,
      signal: result.signal,
      output: result.output.slice(-MAX_CACHED_OUTPUT),
      changes: recorded,
    };
    await mkdir(this.opts.dir, { recursive: true });
    const tmp = join(this.opts.dir, `.tmp-${randomUUID()}`);
    await writeFile(tmp, `${JSON.stringify(entry)}\n`);
    await rename(tmp, this.file(key));
    await this.evict();
  }

  /** Removes least recently used entries until the rest fit in maxBytes. Safe beside another run doing the same. */
  async evict(): Promise<void> {
    const max = this.opts.maxBytes ?? DEFAULT_STEP_CACHE_BYTES;
    let names: string[];
    try {
      names = await readdir(this.opts.dir);
    } catch {
      return;
    }
    const now = Date.now();
    const entries: { name: string; size: number; used: number }[] = [];
    for (const name of names) {
      const s = await stat(join(this.opts.dir, name)).catch(() => null);
      if (s === null) continue;
      if (name.startsWith('.tmp-')) {
        if (now - s.mtimeMs > STALE_TMP_MS) await unlink(join(this.opts.dir, name)).catch(() => undefined);
        continue;
      }
      if (name.endsWith('.json')) entries.push({ name, size: s.size, used: s.mtimeMs });
    }
    let total = entries.reduce((n, e) => n + e.size, 0);
    entries.sort((a, b) => a.used - b.used || compareCodeUnits(a.name, b.name));
    for (const e of entries) {
      if (total <= max) break;
      await unlink(join(this.opts.dir, e.name)).catch(() => undefined);
      total -= e.size;
    }
  }

  private file(key: string): string {
    return join(this.opts.dir, `${key}.json`);
  }
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const MODES: ReadonlySet<string> = new Set(['100644', '100755', '120000']);

/** An entry as `put` writes it, or why the value is not one. Paths are judged again where they are written. */
function parseEntry(raw: unknown): StepCacheEntry | string {
  if (!isRecord(raw)) return 'is not an object';
  if (raw['version'] !== VERSION) return `has version ${JSON.stringify(raw['version'])}, not ${VERSION}`;
  if (raw['kind'] !== 'run' && raw['kind'] !== 'verify') return 'has no step kind';
  if (!(raw['status'] === null || Number.isInteger(raw['status']))) return 'has no exit status';
  if (!(raw['signal'] === null || typeof raw['signal'] === 'string') || typeof raw['output'] !== 'string' || typeof raw['command'] !== 'string') {
    return 'has no signal, output or command';
  }
  const changes = raw['changes'];
  if (!Array.isArray(changes)) return 'has no list of changes';
  for (const c of changes) {
    if (!isRecord(c) || typeof c['path'] !== 'string' || c['path'] === '') return 'holds a change without a path';
    if (c['deleted'] === true) continue;
    if (typeof c['oid'] !== 'string' || !OID.test(c['oid'])) return `holds a change of ${JSON.stringify(c['path'])} without a blob id`;
    if (typeof c['mode'] !== 'string' || !MODES.has(c['mode'])) return `holds a change of ${JSON.stringify(c['path'])} with mode ${JSON.stringify(c['mode'])}`;
  }
  return raw as unknown as StepCacheEntry;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
