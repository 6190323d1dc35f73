// Conditional reads: a host that tags its answers (ETag) answers a repeated read with 304 Not Modified
// when nothing changed, and GitHub does not count such an answer against the hourly quota. The cache
// keeps the last answer of each URL read with a token and sends its tag back; a 304 is served from
// it as the answer it stands for. Kept in a file between runs, so a nightly `track` over thousands of
// pull requests mostly reads "not modified".
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

interface Entry {
  readonly etag: string;
  readonly body: string;
  readonly headers: Record<string, string>;
}

export class ReadCache {
  private entries = new Map<string, Entry>();
  /** Reads answered 304 (served from the cache), and reads answered in full: for the progress and tests. */
  hits = 0;
  misses = 0;

  private static key(url: string, token: string): string {
    return createHash('sha256').update(`${token}\n${url}`).digest('hex').slice(0, 32);
  }

  /** The tag to send with a read of `url`, or null when it was never read. */
  tagOf(url: string, token: string): string | null {
    return this.entries.get(ReadCache.key(url, token))?.etag ?? null;
  }

  /** The answer a 304 stands for. */
  answer(url: string, token: string): Response | null {
    const e = this.entries.get(ReadCache.key(url, token));
    if (e === undefined) return null;
    this.hits++;
    return new Response(e.body, { status: 200, headers: e.headers });
  }

  /** Keeps a tagged answer; returns one to read in its place (a body can be read once). */
  async keep(url: string, token: string, res: Response): Promise<Response> {
    this.misses++;
    const etag = res.headers.get('etag');
    if (etag === null || res.status !== 200) return res;
    const body = await res.text();
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    this.entries.set(ReadCache.key(url, token), { etag, body, headers });
    return new Response(body, { status: res.status, headers });
  }

  /** A cache kept in `file` between runs; a missing or unreadable file starts empty. */
  static async load(file: string): Promise<ReadCache> {
    const c = new ReadCache();
    try {
      const data = JSON.parse(await readFile(file, 'utf8')) as Record<string, Entry>;
      c.entries = new Map(Object.entries(data));
    } catch {
      // First run, or a file another version wrote: read everything in full once.
    }
    return c;
  }

  async save(file: string): Promise<void> {
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(Object.fromEntries(this.entries)));
    await rename(tmp, file);
  }
}
