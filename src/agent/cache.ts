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
    try {
      const entry = JSON.parse(text) as CacheEntry;
      return entry.version === ENTRY_VERSION && Array.isArray(entry.changes) ? entry : null;
    } catch {
      // A torn or hand-edited entry is only a miss.
      return null;
    }
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
