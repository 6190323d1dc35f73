// Verify over many jobs of one base (issue R, point 4), one table: N jobs, each a `replace` in its own
// folder of the corpus and a verify command, as
//  - scion's first run (the step cache empty) and its rerun (every verify replayed from the cache,
//    every branch unchanged), each a fresh `node bin/scion.js` process;
//  - the same with another build of scion when SCION_BENCH_BEFORE=/path/to/bin/scion.js is set
//    (e.g. main's, to measure a change in the same run);
//  - native git doing the same work: per job `git worktree add -b`, the edit with `git grep | sed`,
//    the command, `git commit -a`, `git worktree remove`. Native has no cache: its rerun is the same work.
// The corpus is the synthetic 30,000-file repository (runner.bench.ts's), or SCION_BENCH_REPO. Jobs:
// SCION_BENCH_JOBS (default 8) folders of the root or top-level folder with the most subfolders, holding the
// edited token; --concurrency SCION_BENCH_CONCURRENCY (default 1, as native runs them one by one).
// Each measurement works in a fresh bare `git clone --local` of the corpus. Needs `npm run build`.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntheticRepo } from './runner.bench.js';
import { mb, sh, Steps, table, timed, type Sample } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/scion.js');
const NODE = process.execPath;
const JOBS = Number(process.env.SCION_BENCH_JOBS ?? 8);
const CONCURRENCY = Number(process.env.SCION_BENCH_CONCURRENCY ?? 1);
const COMMAND = 'true';
const TOKENS = ['"version"', 'markerA', 'markerC', 'export', 'function'];

interface Plan {
  readonly files: number;
  readonly token: string;
  readonly replacement: string;
  readonly dirs: readonly string[];
}

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** The root or top-level folder with the most subfolders (a monorepo's `packages`), and a token that N of them hold. */
function plan(repo: string): Plan {
  const dirs = sh(repo, 'git ls-tree -d -r --name-only HEAD').split('\n').filter(Boolean);
  const children = new Map<string, string[]>();
  for (const d of dirs.filter((x) => x.split('/').length <= 2)) {
    const parent = d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '';
    children.set(parent, [...(children.get(parent) ?? []), d]);
  }
  const [, subdirs] = [...children].sort((a, b) => b[1].length - a[1].length)[0]!;
  for (const token of TOKENS) {
    const holding = new Set(
      sh(repo, `git grep -l -F -e ${quote(token)} HEAD -- ${subdirs.map(quote).join(' ')} | sed 's/^HEAD://'`)
        .split('\n')
        .filter(Boolean)
        .map((f) => subdirs.find((d) => f.startsWith(`${d}/`)))
        .filter((d): d is string => d !== undefined),
    );
    const chosen = subdirs.filter((d) => holding.has(d)).slice(0, JOBS);
    if (chosen.length < JOBS) continue;
    // The token's first letter doubled: a JSON key stays a valid key, a word stays one word.
    const i = token.search(/[A-Za-z]/);
    const files = Number(sh(repo, 'git ls-tree -r HEAD | wc -l').trim());
    return { files, token, replacement: token.slice(0, i + 1) + token.slice(i), dirs: chosen };
  }
  throw new Error(`no token of ${TOKENS.join(', ')} is held by ${JOBS} sibling folders in ${repo}`);
}

function fresh(work: string, corpus: string, name: string): string {
  const clone = join(work, name);
  // Hard links when the corpus is on the same file system, a copy when not.
  const local = `git clone -q --bare --local ${quote(corpus)} ${quote(clone)} 2>/dev/null`;
  sh(work, `${local} || { rm -rf ${quote(clone)}; git clone -q --bare --no-hardlinks ${quote(corpus)} ${quote(clone)}; }`);
  return clone;
}

function recipe(work: string, p: Plan): string {
  const file = join(work, 'verify-bench.json');
  const jobs = p.dirs.map((d) => ({ name: d.replaceAll('/', '-'), files: { include: [`${d}/**`] } }));
  const steps = [{ replace: { old_string: p.token, new_string: p.replacement, replace_all: true } }];
  writeFileSync(file, JSON.stringify({ name: 'verify-bench', jobs, steps, verify: [{ run: COMMAND }] }));
  return file;
}

/** One scion run; the statuses its jobs must end with, checked from its report. */
function scionRun(bin: string, work: string, clone: string, file: string, want: string): Sample {
  const report = join(work, 'report.json');
  const s = timed(NODE, [bin, 'run', file, '--repo', clone, '--concurrency', String(CONCURRENCY), '--report', report], work);
  const statuses = (JSON.parse(readFileSync(report, 'utf8')) as { jobs: { status: string }[] }).jobs.map((j) => j.status);
  if (statuses.length !== JOBS || statuses.some((x) => x !== want)) throw new Error(`${bin}: jobs ended ${statuses.join(', ')}, not all ${want}`);
  return s;
}

function nativeRun(work: string, clone: string, p: Plan, tag: string): Sample {
  const steps = new Steps();
  const sed = `s/${p.token.replaceAll('/', '\\/')}/${p.replacement.replaceAll('/', '\\/')}/g`;
  p.dirs.forEach((d, k) => {
    const wt = join(work, `wt-${tag}-${k}`);
    steps.git(clone, ['worktree', 'add', '-q', '-b', `native/${tag}/${k}`, wt, 'HEAD']);
    steps.run('/bin/sh', ['-c', `git grep -l -z -F -e ${quote(p.token)} -- ${quote(d)} | xargs -0 sed -i ${quote(sed)} && ${COMMAND}`], wt);
    steps.git(wt, ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qam', 'bench']);
    steps.git(clone, ['worktree', 'remove', '--force', wt]);
  });
  return steps.done();
}

export default async function bench(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/cli/process.js'))) throw new Error('Run `npm run build` first: the benchmark runs bin/scion.js.');
  const corpus = process.env.SCION_BENCH_REPO ?? syntheticRepo();
  const before = process.env.SCION_BENCH_BEFORE;
  const work = mkdtempSync(join(tmpdir(), 'scion-verify-bench-'));
  const rows: string[][] = [];
  try {
    const p = plan(corpus);
    console.log(`${corpus}: ${p.files} files; ${JOBS} jobs (${p.dirs[0]} …), replace ${p.token}; verify \`${COMMAND}\`; --concurrency ${CONCURRENCY}`);
    const file = recipe(work, p);
    const native = nativeRun(work, fresh(work, corpus, 'native'), p, 'n');
    const row = (who: string, what: string, s: Sample) =>
      rows.push([who, what, `${s.seconds.toFixed(1)} s`, `${native.seconds.toFixed(1)} s`, `${(s.seconds / native.seconds).toFixed(2)}×`, mb(s.rssKB)]);
    for (const [who, bin] of [...(before ? [['before', before] as const] : []), ['scion', BIN] as const]) {
      const clone = fresh(work, corpus, `clone-${who}`);
      row(who, 'first run', scionRun(bin, work, clone, file, 'changed'));
      row(who, 'rerun, all cached', scionRun(bin, work, clone, file, 'unchanged'));
      rmSync(clone, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(table(['build', 'run', 'scion', 'native', 'ratio', 'scion RSS'], rows));
  console.log(`one sample each; native: per job worktree add -b, git grep | sed, \`${COMMAND}\`, commit -a, worktree remove`);
}
