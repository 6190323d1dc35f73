// The response cache for scheduled reruns: a finished conversation's result (the final bytes of every
// file it changed, and what it cost) under a key of everything that decided it. A rerun over the same
// files replays the result with no request at all. Entries hold file contents, never the API key.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Usage } from '../model/types.js';
import { TOOLSET_VERSION } from './tools/schemas.js';

export interface CachedChange {
  readonly path: string;
  /** Blob id of the file before the conversation changed it; null: the conversation created it. */
  readonly before: string | null;
  /** Blob id of the bytes the conversation left. */
  readonly after: string;
  /** Those bytes as text with their own line endings (encoding and BOM come back from the file). */
  readonly content: string;
}

export interface CacheEntry {
  readonly version: typeof ENTRY_VERSION;
  readonly model: string;
  readonly per: 'file' | 'job';
  readonly file: string | null;
  readonly changes: readonly CachedChange[];
  /** What the original conversation cost (a replay costs nothing). */
  readonly usage: Usage;
}

const ENTRY_VERSION = 1;

export interface KeyParts {
  readonly model: string;
  readonly prompt: string;
  readonly per: 'file' | 'job';
  /** [path, blob id] of the file(s) the conversation starts from. */
  readonly files: readonly (readonly [string, string | null])[];
}

export function cacheKey(k: KeyParts): string {
  const material = JSON.stringify({ toolset: TOOLSET_VERSION, model: k.model, prompt: k.prompt, per: k.per, files: k.files });
  return createHash('sha256').update(material).digest('hex');
}

export interface CacheOptions {
  readonly dir: string;
  /** Never write (a dry run keeps .git byte-identical). */
  readonly readOnly: boolean;
  /** Never read (--no-cache); fresh answers are still stored. */
  readonly noRead: boolean;
  /** Told, in one line naming the file, about an entry that is ignored because scion did not write it so. */
  readonly warn?: (message: string) => void;
}

export class ResponseCache {
  constructor(private readonly opts: CacheOptions) {}

  async get(key: string): Promise<CacheEntry | null> {
    if (this.opts.noRead) return null;
    let text: string;
    try {
      text = await readFile(this.file(key), 'utf8');
    } catch {
      return null;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // A torn or hand-edited entry is only a miss.
      return this.ignored(key, 'is not valid JSON');
    }
    // Entries are data anyone may have edited: the shape is checked here, and each path and content
    // goes through the tools' gate and the engine again when it is replayed (replay.ts).
    const why = entryProblem(raw);
    return why === null ? (raw as CacheEntry) : this.ignored(key, why);
  }

  private ignored(key: string, why: string): null {
    this.opts.warn?.(`agent: response cache entry ${this.file(key)} ${why}; ignored, the model is asked again`);
    return null;
  }

  async put(key: string, entry: CacheEntry): Promise<void> {
    if (this.opts.readOnly) return;
    await mkdir(this.opts.dir, { recursive: true });
    // Write then rename: a concurrent reader sees the old entry or the new one, never half of one.
    const tmp = `${this.file(key)}.${randomUUID()}.tmp`;
    await writeFile(tmp, `${JSON.stringify(entry, null, 1)}\n`);
    await rename(tmp, this.file(key));
  }

  private file(key: string): string {
    return join(this.opts.dir, `${key}.json`);
  }
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Why a parsed value is not an entry `put` writes, or null when it is one. */
function entryProblem(raw: unknown): string | null {
  if (!isRecord(raw)) return 'is not an object';
  if (raw['version'] !== ENTRY_VERSION) return `has version ${JSON.stringify(raw['version'])}, not ${ENTRY_VERSION}`;
  if (typeof raw['model'] !== 'string' || (raw['per'] !== 'file' && raw['per'] !== 'job') || !(raw['file'] === null || typeof raw['file'] === 'string')) {
    return 'has no model, per or file';
  }
  const usage = raw['usage'];
  if (!isRecord(usage) || !Object.values(usage).every((v) => typeof v === 'number')) return 'has no usage';
  const changes = raw['changes'];
  if (!Array.isArray(changes)) return 'has no list of changes';
  for (const c of changes) {
    if (!isRecord(c) || typeof c['path'] !== 'string') return 'holds a change without a path';
    const oids = (c['before'] === null || (typeof c['before'] === 'string' && OID.test(c['before']))) && typeof c['after'] === 'string' && OID.test(c['after']);
    if (!oids || typeof c['content'] !== 'string') return `holds a change of ${JSON.stringify(c['path'])} without its blob ids or content`;
  }
  return null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
