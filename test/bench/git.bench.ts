// The git layer on a synthetic 30,000-file repository (3,000 folders, TS-like files of 1–3 KB,
// `git gc`'d into one pack), against native git measured in the same run:
//  - list every path of HEAD                 vs `git ls-tree -r --name-only HEAD`
//  - change 100 files, commit, create branch  vs `git worktree add -b` + edit + `git commit -a`
//    (and vs git plumbing on a temporary index, the fastest native way without a checkout)
//  - full checkout into a new linked worktree vs `git worktree add --detach`
//  - find the 100 edited files in a worktree  vs `git status --porcelain`
// Every scion measurement runs in a fresh child process (this file, SCION_GIT_BENCH_OP set), so
// its peak RSS is that operation's own and its timing includes opening the pack. Medians of 3.
// The repository is cached under os.tmpdir() between runs; worktrees go to os.tmpdir() as well
// (set TMPDIR=/dev/shm to measure on tmpfs, as DESIGN.md's figures were).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as git from '../../src/git/index.js';

const VERSION = 'synthetic-30k-v1';
const FOLDERS = 3_000;
const PER_FOLDER = 10;
const EDITS = 100;
const RUNS = 3;
const HAS_TIME = existsSync('/usr/bin/time');

interface Sample {
  seconds: number;
  rssKB: number;
}

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) e[k] = v;
  return { ...e, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
}

/** Native git, with its peak RSS from /usr/bin/time when that exists. */
function native(cwd: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}, input?: string): { out: string; rssKB: number } {
  const cmd = HAS_TIME ? '/usr/bin/time' : 'git';
  const argv = HAS_TIME ? ['-f', '@@rss %M', 'git', ...args] : args;
  const r = spawnSync(cmd, argv, { cwd, env: { ...env(), ...extraEnv }, encoding: 'utf8', input, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  const m = /@@rss (\d+)/.exec(r.stderr);
  return { out: r.stdout.trimEnd(), rssKB: m ? Number(m[1]) : 0 };
}

// ---- the synthetic repository ------------------------------------------------------------

function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const WORDS = [
  'user',
  'account',
  'order',
  'item',
  'cart',
  'price',
  'logger',
  'config',
  'service',
  'handler',
  'request',
  'response',
  'cache',
  'store',
  'event',
  'queue',
  'token',
  'session',
  'report',
  'widget',
];

function tsFile(n: number, rand: () => number): string {
  const w = (): string => WORDS[Math.floor(rand() * WORDS.length)] as string;
  const cap = (s: string): string => s[0]?.toUpperCase() + s.slice(1);
  const a = w();
  const b = w();
  let s = `import { ${cap(a)} } from '../${a}/${a}.js';\nimport { log } from '../../log.js';\n\n`;
  const fns = 4 + Math.floor(rand() * 8);
  for (let k = 0; k < fns; k++) {
    const f = `${w()}${cap(w())}${k}`;
    s += `export function ${f}(input: ${cap(a)}, limit = ${Math.floor(rand() * 100)}): ${cap(b)} | undefined {\n`;
    s += `  if (!input) {\n    log('missing ${a} in ${f}');\n    return undefined;\n  }\n`;
    s += `  const result = input.${w()}.filter((x) => x.${w()} > limit);\n  return { id: ${n}, count: result.length } as unknown as ${cap(b)};\n}\n\n`;
  }
  return s;
}

function filePath(i: number): string {
  const d = Math.floor(i / PER_FOLDER);
  return `packages/pkg${Math.floor(d / 100)}/src/mod${d}/file${i % PER_FOLDER}.ts`;
}

/** Paths of the files the change operations edit: spread over the whole tree. */
function editedPaths(): string[] {
  return Array.from({ length: EDITS }, (_, k) => filePath(k * Math.floor((FOLDERS * PER_FOLDER) / EDITS) + 3));
}

function edit(text: string, tag: string): string {
  return text.replace('return undefined;', `return null; // ${tag}`);
}

function ensureRepo(): string {
  const root = join(tmpdir(), `scion-git-bench-${VERSION}`);
  const dir = join(root, 'repo');
  if (existsSync(join(root, 'ready'))) return dir;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`generating ${FOLDERS * PER_FOLDER} files in ${dir} (cached for later runs)…`);
  const rand = rng(12345);
  for (let i = 0; i < FOLDERS * PER_FOLDER; i++) {
    const p = join(dir, filePath(i));
    if (i % PER_FOLDER === 0) mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, tsFile(i, rand));
  }
  writeFileSync(join(dir, 'package.json'), '{ "name": "bench", "private": true }\n');
  const g = (...args: string[]): string => native(dir, args).out;
  g('init', '-q', '-b', 'main');
  g('config', 'user.name', 'Bench');
  g('config', 'user.email', 'bench@example.com');
  g('config', 'gc.auto', '0');
  g('add', '-A');
  g('commit', '-q', '-m', 'synthetic repository');
  g('gc', '-q');
  writeFileSync(join(root, 'ready'), `${VERSION}\n`);
  return dir;
}

// ---- scion's side, run in a child process ------------------------------------------------

async function scionOp(op: string, dir: string, scratch: string): Promise<Record<string, number>> {
  const t0 = performance.now();
  const secs = (): number => (performance.now() - t0) / 1000;
  if (op === 'list') {
    const repo = await git.openRepo(dir);
    const entries = await git.listTree(repo, await git.treeOfCommit(repo, (await git.resolveCommit(repo, 'HEAD')) as string));
    if (entries.length !== FOLDERS * PER_FOLDER + 1) throw new Error(`listed ${entries.length} paths`);
    return { seconds: secs() };
  }
  if (op === 'commit') {
    const repo = await git.openRepo(dir);
    const job = async (tag: string, paths: string[]): Promise<void> => {
      const base = (await git.resolveCommit(repo, 'main')) as string;
      const baseTree = await git.treeOfCommit(repo, base);
      const entries = await git.listTree(repo, baseTree);
      const byPath = new Map(entries.map((e) => [e.path, e]));
      const changes = new Map<string, git.TreeChange>();
      for (const p of paths) {
        const e = byPath.get(p) as git.TreeEntry;
        const text = edit(Buffer.from(await git.readBlob(repo, e.oid)).toString('utf8'), tag);
        changes.set(p, { oid: await git.writeBlob(repo, Buffer.from(text)), mode: e.mode });
      }
      const tree = await git.writeTreeWith(repo, baseTree, changes);
      const sha = await git.writeCommit(repo, { tree, parents: [base], message: `bench ${tag}`, author: { name: 'Bench', email: 'b@x' } });
      await git.updateRef(repo, `refs/heads/bench/${tag}`, sha, null);
    };
    await job(`scion-${scratch.slice(-6)}-1`, editedPaths());
    const first = secs();
    const t1 = performance.now();
    await job(
      `scion-${scratch.slice(-6)}-2`,
      editedPaths().map((p) => p.replace('file3', 'file4')),
    );
    return { seconds: first, warm: (performance.now() - t1) / 1000 };
  }
  if (op === 'checkout') {
    const repo = await git.openRepo(dir);
    const commit = (await git.resolveCommit(repo, 'HEAD')) as string;
    await git.addWorktree(repo, { path: join(scratch, 'wt'), commit });
    return { seconds: secs() };
  }
  if (op === 'changes') {
    // Set up natively (untimed), so this process's RSS is worktreeChanges' own.
    const wt = join(scratch, 'wt');
    native(dir, ['worktree', 'add', '-q', '--detach', wt, 'HEAD']);
    const base = native(dir, ['ls-tree', '-r', 'HEAD'])
      .out.split('\n')
      .map((l) => {
        const [meta, path] = l.split('\t') as [string, string];
        const [mode, , oid] = meta.split(' ') as [string, string, string];
        return { path, mode, oid };
      });
    for (const p of editedPaths()) writeFileSync(join(wt, p), edit(readFileSync(join(wt, p), 'utf8'), 'changes'));
    const repo = await git.openRepo(wt);
    const t = performance.now();
    const changes = await git.worktreeChanges(repo, { path: wt, id: 'wt', adminDir: repo.gitDir }, base);
    if (changes.size !== EDITS) throw new Error(`found ${changes.size} changes`);
    return { seconds: (performance.now() - t) / 1000 };
  }
  throw new Error(`unknown op ${op}`);
}

function runChild(op: string, dir: string, scratch: string): Record<string, number> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, SCION_GIT_BENCH_OP: op, SCION_GIT_BENCH_REPO: dir, SCION_GIT_BENCH_SCRATCH: scratch },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`bench child ${op} failed:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(last) as Record<string, number>;
}

// ---- native side -------------------------------------------------------------------------

function nativeOp(op: string, dir: string, scratch: string): Sample[] {
  const timed = (fn: () => number): Sample => {
    const t0 = performance.now();
    const rssKB = fn();
    return { seconds: (performance.now() - t0) / 1000, rssKB };
  };
  const wt = join(scratch, 'wt');
  const tag = `native-${scratch.slice(-6)}`;
  if (op === 'list') return [timed(() => native(dir, ['ls-tree', '-r', '--name-only', 'HEAD']).rssKB)];
  if (op === 'commit') {
    const worktree = timed(() => {
      const a = native(dir, ['worktree', 'add', '-q', '-b', `bench/${tag}`, wt, 'main']).rssKB;
      for (const p of editedPaths()) writeFileSync(join(wt, p), edit(readFileSync(join(wt, p), 'utf8'), tag));
      return Math.max(a, native(wt, ['commit', '-q', '-a', '-m', `bench ${tag}`]).rssKB);
    });
    const plumbing = timed(() => {
      // No checkout: a temporary index, new blobs from stdin, tree, commit, ref.
      const idx = { GIT_INDEX_FILE: join(scratch, 'index') };
      let rss = native(dir, ['read-tree', 'main'], idx).rssKB;
      const batch = native(
        dir,
        ['cat-file', '--batch'],
        {},
        editedPaths()
          .map((p) => `main:${p}`)
          .join('\n') + '\n',
      );
      rss = Math.max(rss, batch.rssKB);
      const contents = parseBatch(batch.out);
      const files = editedPaths().map((p, k) => {
        const f = join(scratch, p.replaceAll('/', '_'));
        writeFileSync(f, edit(contents[k] as string, `${tag}-p`));
        return f;
      });
      const h = native(dir, ['hash-object', '-w', '--stdin-paths'], {}, files.join('\n'));
      const info = h.out
        .split('\n')
        .map((oid, k) => `100644 ${oid}\t${editedPaths()[k]}`)
        .join('\n');
      rss = Math.max(rss, h.rssKB, native(dir, ['update-index', '--index-info'], idx, `${info}\n`).rssKB);
      const tree = native(dir, ['write-tree'], idx);
      const commit = native(dir, ['commit-tree', tree.out, '-p', 'main', '-m', `bench ${tag}`]);
      return Math.max(rss, tree.rssKB, commit.rssKB, native(dir, ['update-ref', `refs/heads/bench/${tag}-p`, commit.out, '']).rssKB);
    });
    return [worktree, plumbing];
  }
  if (op === 'checkout') return [timed(() => native(dir, ['worktree', 'add', '-q', '--detach', wt, 'HEAD']).rssKB)];
  if (op === 'changes') {
    native(dir, ['worktree', 'add', '-q', '--detach', wt, 'HEAD']);
    for (const p of editedPaths()) writeFileSync(join(wt, p), edit(readFileSync(join(wt, p), 'utf8'), 'changes'));
    return [timed(() => native(wt, ['status', '--porcelain']).rssKB)];
  }
  throw new Error(`unknown op ${op}`);
}

/** Contents from `git cat-file --batch` output ("<oid> <type> <size>\n<content>\n" each). */
function parseBatch(out: string): string[] {
  const buf = Buffer.from(out);
  const result: string[] = [];
  let p = 0;
  while (p < buf.length) {
    const nl = buf.indexOf(10, p);
    const size = Number(buf.toString('utf8', p, nl).split(' ')[2]);
    result.push(buf.toString('utf8', nl + 1, nl + 1 + size));
    p = nl + 1 + size + 1;
  }
  return result;
}

// ---- driver ------------------------------------------------------------------------------

function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'scion-git-bench-run-'));
}

function cleanup(dir: string, scratch: string): void {
  rmSync(scratch, { recursive: true, force: true });
  native(dir, ['worktree', 'prune']);
  const branches = native(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/bench/']).out;
  for (const ref of branches.split('\n').filter(Boolean)) native(dir, ['update-ref', '-d', ref]);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

export default async function run(): Promise<void> {
  const dir = ensureRepo();
  const pack = native(dir, ['count-objects', '-v']).out.match(/size-pack: (\d+)/)?.[1];
  console.log(`repository: ${FOLDERS * PER_FOLDER + 1} files, ${FOLDERS} folders, pack ${Math.round(Number(pack) / 1024)} MB, at ${dir}`);
  const rows: string[][] = [];
  const add = (name: string, nat: Sample[], ours: Sample[]): void => {
    const n = median(nat.map((s) => s.seconds));
    const o = median(ours.map((s) => s.seconds));
    const mb = (kb: number): string => (kb > 0 ? `${Math.round(kb / 1024)} MB` : '–');
    rows.push([
      name,
      n.toFixed(3),
      o.toFixed(3),
      `${(o / n).toFixed(2)}×`,
      mb(Math.max(...nat.map((s) => s.rssKB))),
      mb(Math.max(...ours.map((s) => s.rssKB))),
    ]);
  };
  const ops: [string, string][] = [
    ['list', 'list every path of HEAD'],
    ['commit', 'change 100 files, commit, branch'],
    ['checkout', 'full checkout into a new worktree'],
    ['changes', 'find 100 edited files in a worktree'],
  ];
  for (const [op, name] of ops) {
    const nat: Sample[][] = [];
    const ours: Record<string, number>[] = [];
    for (let i = 0; i < RUNS; i++) {
      let scratch = scratchDir();
      nat.push(nativeOp(op, dir, scratch));
      cleanup(dir, scratch);
      scratch = scratchDir();
      ours.push(runChild(op, dir, scratch));
      cleanup(dir, scratch);
    }
    const oursSamples = ours.map((o) => ({ seconds: o.seconds as number, rssKB: o.rssKB as number }));
    if (op === 'commit') {
      add(
        `${name} (vs worktree + commit -a)`,
        nat.map((s) => s[0] as Sample),
        oursSamples,
      );
      add(
        `${name} (vs plumbing, temp index)`,
        nat.map((s) => s[1] as Sample),
        oursSamples,
      );
      add(
        `${name}: second job, same Repo`,
        nat.map((s) => s[1] as Sample),
        ours.map((o) => ({ seconds: o.warm as number, rssKB: o.rssKB as number })),
      );
    } else {
      add(
        name,
        nat.map((s) => s[0] as Sample),
        oursSamples,
      );
    }
  }
  console.log(`\nmedian of ${RUNS}; worktrees under ${tmpdir()}; scion RSS includes Node + tsx + modules (~80 MB)\n`);
  console.log('| operation | native git s | scion s | ratio | native peak RSS | scion peak RSS |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

const childOp = process.env.SCION_GIT_BENCH_OP;
if (childOp) {
  const result = await scionOp(childOp, process.env.SCION_GIT_BENCH_REPO as string, process.env.SCION_GIT_BENCH_SCRATCH as string);
  console.log(JSON.stringify({ ...result, rssKB: process.resourceUsage().maxRSS }));
}
