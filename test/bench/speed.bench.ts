// Speed on real repositories (issue J), one table: each scenario as scion / native git with peak
// RSS, both measured in this run, on
//  - the synthetic 30,000-file repository (runner.bench.ts's),
//  - a real-code corpus built from this project's node_modules (corpus.ts), or, when
//    SCION_BENCH_REPO=/path/to/clone is set, that repository instead of both.
// Scenarios (every scion figure is a fresh `node bin/scion.js` process, start-up included):
//  - start:   `scion --help`, `scion validate r.yaml`, and `scion plan` of a 1-file edit in a
//             1-file repository (what the runner, git and the diff renderer cost to load)
//                                                                 vs `node -e 0`
//  - edit:    a 1-file `edit` step, committed on a branch         vs plumbing on a temporary index
//             (read-tree, cat-file, hash-object, update-index, write-tree, commit-tree, update-ref)
//  - write:   a 1-file `write` step                               vs the same plumbing
//  - replace: `replace_all` over the whole tree (~100–300 files)  vs plumbing fed by `git grep -l`
//  - run:     a job with a `run: "true"` step (full worktree)     vs `git worktree add` + `true` +
//             `git worktree remove` (scion removes its worktree too)
// Each run works in a fresh bare `git clone --local` of the corpus (hard links: the same packs).
// Medians of SCION_BENCH_RUNS (default 3). Needs `npm run build` (bin/scion.js runs dist/);
// SCION_BENCH_BIN=/other/checkout/bin/scion.js measures another build (a before/after comparison).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeModulesCorpus } from './corpus.js';
import { syntheticRepo } from './runner.bench.js';
import { cleanEnv, mb, median, parseBatch, sh, Steps, table, timed, type Sample } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = process.env.SCION_BENCH_BIN ?? join(ROOT, 'bin/scion.js');
const RUNS = Number(process.env.SCION_BENCH_RUNS ?? 3);
const NODE = process.execPath;

interface Corpus {
  readonly name: string;
  /** A repository to clone from (bare or not). */
  readonly dir: string;
}

interface Row {
  readonly corpus: string;
  readonly scenario: string;
  readonly scion: Sample[];
  readonly native: Sample[];
  readonly target: string;
}

function corpora(): Corpus[] {
  const given = process.env.SCION_BENCH_REPO;
  if (given) return [{ name: given.split('/').filter(Boolean).pop() ?? given, dir: given }];
  const nm = nodeModulesCorpus(join(ROOT, 'node_modules'));
  return [
    { name: 'synthetic 30k', dir: syntheticRepo() },
    { name: `node_modules ${Math.round(nm.files / 1000)}k`, dir: nm.dir },
  ];
}

const git = (cwd: string, ...args: string[]): string => sh(cwd, `git ${args.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ')}`).trimEnd();

/** What the scenarios edit in this corpus, chosen from its HEAD tree. */
interface Plan {
  readonly file: string;
  readonly line: string;
  readonly token: string;
  readonly tokenFiles: number;
  readonly files: number;
}

function plan(repo: string): Plan {
  const paths = git(repo, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n');
  // A code file deep in the tree, with a line that occurs once in it.
  const code = paths.filter((p) => /\.(ts|js|mjs|cjs)$/.test(p) && !p.endsWith('.d.ts') && !p.endsWith('.min.js'));
  for (let k = 0; k < code.length; k++) {
    const file = code[(Math.floor(code.length / 2) + k * 7919) % code.length] as string;
    const text = git(repo, 'cat-file', 'blob', `HEAD:${file}`);
    const lines = text.split('\n');
    const line = lines.find(
      (l, i) => l.trim().length > 12 && !/[\r\t]/.test(l) && lines.indexOf(l) === i && lines.lastIndexOf(l) === i && text.split(l).length === 2,
    );
    if (line) {
      const { token, tokenFiles } = pickToken(repo);
      return { file, line, token, tokenFiles, files: paths.length };
    }
  }
  throw new Error(`no file with a unique line in ${repo}`);
}

/** An identifier-like string in 100–300 files (closest to 150), for the whole-tree replace. */
function pickToken(repo: string): { token: string; tokenFiles: number } {
  const candidates = [
    'markerA',
    'hasOwnProperty',
    'Object.defineProperty',
    'module.exports',
    'Symbol.iterator',
    'process.env',
    'Buffer.from',
    'JSON.stringify',
    'Array.isArray',
    'Promise.resolve',
    'new Error(',
    'typeof window',
    'Object.assign',
    'readonly',
    'async function',
    'setTimeout',
    'TODO',
    'function',
    'return',
  ];
  let best: { token: string; tokenFiles: number } | null = null;
  for (const token of candidates) {
    const n = sh(repo, `git grep -l -F -e '${token}' HEAD | wc -l`).trim();
    const tokenFiles = Number(n);
    if (tokenFiles === 0) continue;
    if (best === null || Math.abs(Math.log(tokenFiles / 150)) < Math.abs(Math.log(best.tokenFiles / 150))) best = { token, tokenFiles };
  }
  if (best === null) throw new Error(`no replace token found in ${repo}`);
  return best;
}

const REPLACEMENT = (token: string): string => `${token}/*b*/`;

// ---- scion -------------------------------------------------------------------------------------

function scionRun(work: string, clone: string, name: string, steps: unknown[]): Sample {
  const recipe = join(work, `${name}.json`);
  writeFileSync(recipe, JSON.stringify({ name, steps }));
  const report = join(work, `${name}.report.json`);
  const s = timed(NODE, [BIN, 'run', recipe, '--repo', clone, '--report', report], work, { okCodes: [0, 1] });
  const rep = JSON.parse(readFileSync(report, 'utf8')) as { jobs: { status: string; files: unknown[]; errors: unknown[] }[] };
  const bad = rep.jobs.filter((j) => j.status === 'failed');
  if (bad.length > 0) throw new Error(`scion ${name} failed: ${JSON.stringify(bad.map((j) => j.errors)).slice(0, 2000)}`);
  return { seconds: s.seconds, rssKB: s.rssKB, ...(s.cpu !== undefined ? { cpu: s.cpu } : {}) };
}

// ---- native ------------------------------------------------------------------------------------

function nativeCommit(clone: string, scratch: string, tag: string, steps: Steps, contents: Map<string, Buffer>): void {
  const idx = { env: cleanEnv({ GIT_INDEX_FILE: join(scratch, `index-${tag}`) }) };
  steps.git(clone, ['read-tree', 'HEAD'], idx);
  const files = [...contents].map(([path, data], k) => {
    const f = join(scratch, `${tag}-${k}`);
    writeFileSync(f, data);
    return { path, f };
  });
  const oids = steps.git(clone, ['hash-object', '-w', '--stdin-paths'], { input: files.map((x) => x.f).join('\n') + '\n' }).split('\n');
  const info = files.map((x, k) => `100644 ${oids[k]}\t${x.path}`).join('\n') + '\n';
  steps.git(clone, ['update-index', '--index-info'], { ...idx, input: info });
  const tree = steps.git(clone, ['write-tree'], idx);
  const commit = steps.git(clone, ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit-tree', tree, '-p', 'HEAD', '-m', `bench ${tag}`]);
  steps.git(clone, ['update-ref', `refs/heads/native/${tag}`, commit, '']);
}

function nativeOne(clone: string, scratch: string, tag: string, file: string, edit: (s: string) => string): Sample {
  const steps = new Steps();
  const text = steps.run('git', ['cat-file', 'blob', `HEAD:${file}`], clone).toString('utf8');
  nativeCommit(clone, scratch, tag, steps, new Map([[file, Buffer.from(edit(text))]]));
  return steps.done();
}

function nativeReplace(clone: string, scratch: string, tag: string, token: string): { sample: Sample; files: number } {
  const steps = new Steps();
  const paths = steps
    .git(clone, ['grep', '-l', '-z', '-F', '-e', token, 'HEAD'])
    .split('\0')
    .filter(Boolean)
    .map((p) => p.replace(/^HEAD:/, ''));
  const batch = steps.run('git', ['cat-file', '--batch'], clone, { input: paths.map((p) => `HEAD:${p}`).join('\n') + '\n' });
  const contents = new Map<string, Buffer>();
  parseBatch(batch).forEach((data, k) => contents.set(paths[k] as string, Buffer.from(data.toString('utf8').split(token).join(REPLACEMENT(token)))));
  nativeCommit(clone, scratch, tag, steps, contents);
  return { sample: steps.done(), files: contents.size };
}

function nativeWorktree(clone: string, scratch: string, tag: string): Sample {
  const steps = new Steps();
  const wt = join(scratch, `wt-${tag}`);
  steps.git(clone, ['worktree', 'add', '-q', '--detach', wt, 'HEAD']);
  steps.run('/bin/sh', ['-c', 'true'], wt);
  steps.git(clone, ['worktree', 'remove', '--force', wt]);
  return steps.done();
}

// ---- driver ------------------------------------------------------------------------------------

function fresh(work: string, corpus: Corpus, n: string): string {
  const clone = join(work, `clone-${n}`);
  // Hard links when the corpus is on the same file system, a copy when not (SCION_BENCH_REPO elsewhere).
  sh(
    work,
    `git clone -q --bare --local '${corpus.dir}' '${clone}' 2>/dev/null || { rm -rf '${clone}'; git clone -q --bare --no-hardlinks ` +
      `'${corpus.dir}' '${clone}'; }`,
  );
  return clone;
}

export default async function bench(): Promise<void> {
  if (!existsSync(join(BIN, '../../dist/cli/process.js'))) throw new Error('Run `npm run build` first: the benchmark runs bin/scion.js.');
  const work = mkdtempSync(join(tmpdir(), 'scion-speed-'));
  const rows: Row[] = [];
  const only = process.env.SCION_BENCH_SCENARIOS?.split(',');
  const want = (s: string): boolean => !only || only.includes(s);
  try {
    // Start-up does not depend on the repository.
    writeFileSync(join(work, 'v.yaml'), 'name: v\nsteps:\n  - replace: { old_string: "a", new_string: "b" }\n');
    if (want('start')) {
      const tiny = join(work, 'tiny');
      sh(
        work,
        `git init -q tiny && echo 'export const a = 1;' > tiny/a.ts && git -C tiny add a.ts && git -C tiny -c user.name=b -c user.email=b@b commit -qm one`,
      );
      writeFileSync(join(work, 'p.yaml'), 'name: p\nsteps:\n  - edit: { file: a.ts, edits: [{ old_string: "a = 1", new_string: "a = 2" }] }\n');
      const base: Sample[] = [];
      const help: Sample[] = [];
      const validate: Sample[] = [];
      const planned: Sample[] = [];
      for (let i = 0; i < Math.max(RUNS, 5); i++) {
        base.push(timed(NODE, ['-e', '0'], work));
        help.push(timed(NODE, [BIN, '--help'], work));
        validate.push(timed(NODE, [BIN, 'validate', 'v.yaml'], work));
        planned.push(timed(NODE, [BIN, 'plan', 'p.yaml', '--repo', tiny], work));
      }
      rows.push({ corpus: '–', scenario: '`scion --help` vs `node -e 0`', scion: help, native: base, target: '≤ 2×' });
      rows.push({ corpus: '–', scenario: '`scion validate` vs `node -e 0`', scion: validate, native: base, target: '≤ 2.5×' });
      rows.push({ corpus: '–', scenario: '`scion plan` (1 file, 1-file repo) vs `node -e 0`', scion: planned, native: base, target: '–' });
    }
    for (const corpus of corpora()) {
      const p = plan(corpus.dir);
      console.log(`${corpus.name}: ${p.files} files at ${corpus.dir}; edit ${p.file}; replace "${p.token}" (${p.tokenFiles} files)`);
      const r = (scenario: string, target: string): Row => {
        const row: Row = { corpus: corpus.name, scenario, scion: [], native: [], target };
        rows.push(row);
        return row;
      };
      const edit = r('1-file `edit`', '≤ 2×, < 100 MB');
      const write = r('1-file `write`', '≤ 2×, < 100 MB');
      const replace = r(`\`replace_all\` over the tree (${p.tokenFiles} files)`, '≤ 1.5×, < 150 MB');
      const run = r('job with a `run` step', '≤ 1.2×');
      for (let i = 0; i < RUNS; i++) {
        const scratch = mkdtempSync(join(work, 'scratch-'));
        const clone = fresh(work, corpus, `${i}`);
        const newLine = `${p.line} // scion bench`;
        if (want('edit')) {
          edit.native.push(nativeOne(clone, scratch, `edit${i}`, p.file, (s) => s.split(p.line).join(newLine)));
          edit.scion.push(scionRun(scratch, clone, `edit${i}`, [{ edit: { file: p.file, edits: [{ old_string: p.line, new_string: newLine }] } }]));
        }
        if (want('write')) {
          write.native.push(nativeOne(clone, scratch, `write${i}`, p.file, () => 'written by the benchmark\n'));
          write.scion.push(scionRun(scratch, clone, `write${i}`, [{ write: { file: p.file, content: 'written by the benchmark\n' } }]));
        }
        if (want('replace')) {
          const nat = nativeReplace(clone, scratch, `replace${i}`, p.token);
          replace.native.push(nat.sample);
          replace.scion.push(
            scionRun(scratch, clone, `replace${i}`, [{ replace: { old_string: p.token, new_string: REPLACEMENT(p.token), replace_all: true } }]),
          );
          if (i === 0) {
            const ours = git(clone, 'diff', '--name-only', 'HEAD', `scion/replace${i}`).split('\n').filter(Boolean).length;
            console.log(`  replace: native changed ${nat.files} files, scion ${ours}`);
          }
        }
        if (want('run')) {
          run.native.push(nativeWorktree(clone, scratch, `run${i}`));
          run.scion.push(scionRun(scratch, clone, `run${i}`, [{ run: 'true' }]));
        }
        rmSync(clone, { recursive: true, force: true });
        rmSync(scratch, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const out = rows
    .filter((r) => r.scion.length > 0)
    .map((r) => {
      const a = median(r.scion.map((s) => s.seconds));
      const b = median(r.native.map((s) => s.seconds));
      // CPU (user + system) is the steadier figure on a shared machine, where wall time waits for the cores.
      const cpu = (xs: Sample[]) => median(xs.map((s) => s.cpu ?? 0));
      const cpuRatio = cpu(r.native) > 0 ? `${(cpu(r.scion) / cpu(r.native)).toFixed(2)}×` : '–';
      return [
        r.corpus,
        r.scenario,
        `${a.toFixed(2)} s`,
        `${b.toFixed(2)} s`,
        `${(a / b).toFixed(2)}×`,
        cpuRatio,
        mb(Math.max(...r.scion.map((s) => s.rssKB))),
        mb(Math.max(...r.native.map((s) => s.rssKB))),
        r.target,
      ];
    });
  console.log(table(['corpus', 'scenario', 'scion', 'native', 'ratio', 'CPU ratio', 'scion RSS', 'native RSS', 'target'], out));
  console.log(`medians of ${RUNS} (start-up: of ${Math.max(RUNS, 5)}); native RSS is the largest git process's; ${BIN}`);
}
