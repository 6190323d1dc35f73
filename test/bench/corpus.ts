// The real-code corpus of the benchmarks: the text files of this project's node_modules (code nobody
// here wrote: JS, TS, JSON, Markdown, CSS, source maps), committed as a history of a few hundred
// commits (packages arrive a few at a time, then files are edited here and there) and packed with
// `git gc --aggressive`, so its packs, delta chains and file sizes are those of a real repository.
// Built with `git fast-import` (seconds, not minutes) and cached under os.tmpdir(), keyed by a hash
// of the file list: a rerun with the same node_modules does not rebuild it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { cleanEnv, sh } from './support.js';

const VERSION = 'nm-corpus-v1';
const TEXT = /\.(js|mjs|cjs|ts|mts|cts|tsx|jsx|json|md|markdown|css|scss|map|yml|yaml|txt|d\.ts)$/i;
const MAX_FILE = 1024 * 1024;
const ADD_COMMITS = 200;
const EDIT_COMMITS = 100;
const EDITS_PER_COMMIT = 25;

function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function walk(root: string, dir: string, out: { path: string; size: number }[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) walk(root, abs, out);
    else if (e.isFile() && TEXT.test(e.name)) {
      const size = statSync(abs).size;
      if (size <= MAX_FILE) out.push({ path: relative(root, abs), size });
    }
  }
}

/** A small realistic edit: a line removed, a line duplicated, or a comment added. */
function editText(text: string, rand: () => number, n: number): string {
  const lines = text.split('\n');
  const at = Math.floor(rand() * lines.length);
  const kind = Math.floor(rand() * 3);
  if (kind === 0 && lines.length > 3) lines.splice(at, 1);
  else if (kind === 1) lines.splice(at, 0, lines[at] ?? '');
  else lines.splice(at, 0, `// revision ${n}: reviewed`);
  return lines.join('\n');
}

/** The text files under `root` (up to 1 MB each), sorted by path. */
export function textFiles(root: string): { path: string; size: number }[] {
  const files: { path: string; size: number }[] = [];
  walk(root, root, files);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The corpus repository (bare; callers clone it). */
export function nodeModulesCorpus(source: string): { dir: string; files: number } {
  const files = textFiles(source);
  const key = createHash('sha1')
    .update(VERSION)
    .update(files.map((f) => `${f.path}\0${f.size}`).join('\n'))
    .digest('hex')
    .slice(0, 12);
  const root = join(tmpdir(), `scion-bench-corpus-${key}`);
  const dir = join(root, 'repo.git');
  if (existsSync(join(root, 'ready'))) return { dir, files: files.length };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const t0 = Date.now();
  console.log(`building the node_modules corpus: ${files.length} files, ${ADD_COMMITS + EDIT_COMMITS} commits, in ${dir} (cached for later runs)…`);
  sh(root, `git init -q --bare -b main ${dir} && git -C ${dir} config gc.auto 0`);

  // Packages (top-level folders and @scope/name) arrive in ADD_COMMITS commits, in path order.
  const pkgOf = (p: string): string => {
    const parts = p.split('/');
    return parts[0]?.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
  };
  const pkgs = [...new Set(files.map((f) => pkgOf(f.path)))];
  const perCommit = Math.ceil(pkgs.length / ADD_COMMITS);
  const rand = rng(4242);
  const current = new Map<string, Buffer>();
  const chunks: Buffer[] = [];
  let mark = 0;
  let time = 1_700_000_000;
  const commit = (message: string, changes: Map<string, Buffer>): void => {
    const head: string[] = [
      `commit refs/heads/main`,
      `mark :${++mark}`,
      `author Bench <bench@example.com> ${time} +0000`,
      `committer Bench <bench@example.com> ${time} +0000`,
    ];
    time += 3600;
    const msg = Buffer.from(message);
    chunks.push(Buffer.from(`${head.join('\n')}\ndata ${msg.length}\n`), msg, Buffer.from('\n'));
    for (const [path, data] of changes) {
      chunks.push(Buffer.from(`M 100644 inline ${path}\ndata ${data.length}\n`), data, Buffer.from('\n'));
    }
    chunks.push(Buffer.from('\n'));
  };
  for (let c = 0; c < ADD_COMMITS; c++) {
    const mine = new Set(pkgs.slice(c * perCommit, (c + 1) * perCommit));
    if (mine.size === 0) break;
    const changes = new Map<string, Buffer>();
    for (const f of files) {
      if (!mine.has(pkgOf(f.path))) continue;
      const data = readFileSync(join(source, f.path));
      changes.set(f.path, data);
      current.set(f.path, data);
    }
    commit(`Add ${[...mine].join(', ')}`, changes);
  }
  const paths = [...current.keys()];
  for (let c = 0; c < EDIT_COMMITS; c++) {
    const changes = new Map<string, Buffer>();
    for (let k = 0; k < EDITS_PER_COMMIT; k++) {
      const path = paths[Math.floor(rand() * paths.length)] as string;
      const data = Buffer.from(editText((current.get(path) as Buffer).toString('utf8'), rand, c));
      changes.set(path, data);
      current.set(path, data);
    }
    commit(`Edit ${changes.size} files (${c + 1})`, changes);
  }
  const r = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, env: cleanEnv(), input: Buffer.concat(chunks), maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`git fast-import failed: ${r.stderr.toString()}`);
  sh(dir, 'git gc -q --aggressive --prune=now');
  writeFileSync(join(root, 'ready'), `${VERSION}\n`);
  console.log(`corpus built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return { dir, files: files.length };
}
