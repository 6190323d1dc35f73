// The cost of readable diffs (issue O), every figure a fresh `node bin/scion.js` process:
//  - load:    importing highlight.js's core with the TypeScript grammar (what a coloured plan of
//             TypeScript files loads), and highlight.js with all its grammars, in a fresh node (time
//             and RSS over `node` alone)
//  - plan150: `scion plan` of a 150-job recipe (1,400 changed files), colour off (NO_COLOR) against
//             colour on (FORCE_COLOR=2: highlighted, changed words marked)
//  - startup: `scion plan` of a one-file recipe, colour off and on (medians of twice the runs,
//             interleaved); with SCION_BENCH_BASELINE set,
//             also the same colour-off plan by that build: a folder holding bin/scion.js and dist/
//             (a copy of an earlier build), or a git revision that is built into a temp folder
// Medians of SCION_BENCH_RUNS (default 5). Needs `npm run build` (bin/scion.js runs dist/).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, HAS_TIME, mb, median, sh, table, timed, type Sample } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/scion.js');
const NODE = process.execPath;
const RUNS = Number(process.env.SCION_BENCH_RUNS ?? 5);
const JOBS = 150;
const FILES = 1_400;

const colourOff = (): NodeJS.ProcessEnv => cleanEnv();
function colourOn(): NodeJS.ProcessEnv {
  const e = cleanEnv({ FORCE_COLOR: '2', TERM: 'xterm-256color' });
  delete e['NO_COLOR'];
  return e;
}

/** A 40-line TypeScript file with a logger call renamed on three of its lines, one of them long. */
function source(pkg: string, k: number): string {
  return (
    Array.from({ length: 40 }, (_, i) =>
      i % 13 === 5
        ? `  legacyLog("${pkg} ${k} ${i}", { detail: compute(${i}), owner: "${pkg}", note: "long enough to wrap on a narrow terminal" });`
        : `  const v${i} = compute(${i}, "${pkg}");`,
    ).join('\n') + '\n'
  );
}

function repoOf(jobs: number, files: number): { dir: string; recipe: string } {
  const dir = mkdtempSync(join(tmpdir(), 'scion-bench-diff-'));
  let made = 0;
  for (let j = 0; j < jobs; j++) {
    const pkg = `pkg-${String(j).padStart(3, '0')}`;
    const count = Math.floor(((j + 1) * files) / jobs) - made;
    made += count;
    for (let k = 0; k < count; k++) {
      const file = join(dir, `packages/${pkg}/src/mod${k}.ts`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, source(pkg, k));
    }
  }
  sh(dir, 'git init -q -b main && git add -A && git -c user.name=b -c user.email=b@x commit -qm init');
  const recipe = `${dir}.yaml`;
  const each = jobs > 1 ? 'jobs:\n  - each: "packages/*"\n' : '';
  writeFileSync(recipe, `name: diffs\n${each}steps:\n  - replace: { old_string: "legacyLog(", new_string: "log(", replace_all: true }\n`);
  return { dir, recipe };
}

/** A run's wall time and peak RSS, and the CPU time it used (user + system): steadier than wall time on a busy machine. */
interface Run extends Sample {
  readonly cpu: number;
}

function samples(bin: string, recipe: string, dir: string, env: NodeJS.ProcessEnv, runs = RUNS): Run[] {
  const out: Run[] = [];
  for (let i = 0; i < runs; i++) {
    const args = [bin, 'plan', recipe, '--repo', dir];
    const t0 = process.hrtime.bigint();
    const r = spawnSync(HAS_TIME ? '/usr/bin/time' : NODE, HAS_TIME ? ['-f', '@@cpu %U %S %M', NODE, ...args] : args, { cwd: dir, env, maxBuffer: 1 << 30 });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) throw new Error(`scion plan failed (${r.status}): ${r.stderr.toString('utf8').slice(-2000)}`);
    const m = /@@cpu ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr.toString('utf8'));
    out.push({ seconds, cpu: m ? Number(m[1]) + Number(m[2]) : 0, rssKB: m ? Number(m[3]) : 0 });
  }
  return out;
}

function loadSamples(): { none: Sample[]; ts: Sample[]; all: Sample[] } {
  const run = (body: string) => Array.from({ length: RUNS }, () => timed(NODE, ['--input-type=module', '-e', body], ROOT));
  const sample = "h.highlight('const a = 1;', { language: 'typescript' });";
  return {
    none: run('0'),
    // What `plan` loads with colour on, for a diff of TypeScript files (src/report/highlight.ts).
    ts: run(
      "const h = (await import('highlight.js/lib/core')).default.newInstance(); " +
        `h.registerLanguage('typescript', (await import('highlight.js/lib/languages/typescript')).default); ${sample}`,
    ),
    // For comparison: highlight.js with every grammar (what lowlight's and emphasize's entry points load).
    all: run(`const h = (await import('highlight.js')).default; ${sample}`),
  };
}

/** The baseline build: a folder with bin/scion.js, or a git revision built into a temp folder. */
function baselineBin(spec: string): { bin: string; cleanup: () => void } {
  if (existsSync(join(spec, 'bin/scion.js'))) return { bin: join(spec, 'bin/scion.js'), cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'scion-bench-baseline-'));
  execFileSync('/bin/sh', ['-c', `git -C '${ROOT}' archive '${spec}' | tar -x -C '${dir}'`]);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(NODE, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, stdio: 'inherit' });
  return { bin: join(dir, 'bin/scion.js'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const ms = (xs: readonly Sample[]) => median(xs.map((s) => s.seconds * 1000));
const rss = (xs: readonly Sample[]) => median(xs.map((s) => s.rssKB));
const cpu = (xs: readonly Run[]) => median(xs.map((s) => s.cpu * 1000));
/** A row of a plan table: wall time, CPU time, RSS, and both ratios against `base`. */
const planRow = (name: string, xs: readonly Run[], base?: readonly Run[]): string[] => [
  name,
  `${ms(xs).toFixed(0)} ms`,
  `${cpu(xs).toFixed(0)} ms`,
  mb(rss(xs)),
  base ? `${(ms(xs) / ms(base)).toFixed(2)}× / ${(cpu(xs) / cpu(base)).toFixed(2)}×` : '',
];
const row = (name: string, xs: readonly Sample[], base?: readonly Sample[]): string[] => [
  name,
  `${ms(xs).toFixed(0)} ms`,
  mb(rss(xs)),
  base ? `${(ms(xs) / ms(base)).toFixed(2)}×` : '',
];

const over = (name: string, xs: readonly Sample[], base: readonly Sample[]): string[] => [
  ...row(name, xs).slice(0, 3),
  `+${(ms(xs) - ms(base)).toFixed(0)} ms, +${Math.round((rss(xs) - rss(base)) / 1024)} MB`,
];

export default async function bench(): Promise<void> {
  const load = loadSamples();
  console.log(
    table(
      ['load (fresh node)', 'time', 'peak RSS', 'over node alone'],
      [
        row('node -e 0', load.none),
        over('highlight.js core + typescript grammar', load.ts, load.none),
        over('highlight.js, all 192 grammars', load.all, load.none),
      ],
    ),
  );

  const big = repoOf(JOBS, FILES);
  const small = repoOf(1, 1);
  const baseSpec = process.env.SCION_BENCH_BASELINE;
  const baseline = baseSpec ? baselineBin(baseSpec) : null;
  try {
    const off: Run[] = [];
    const on: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      off.push(...samples(BIN, big.recipe, big.dir, colourOff(), 1));
      on.push(...samples(BIN, big.recipe, big.dir, colourOn(), 1));
    }
    const megabytes = (env: NodeJS.ProcessEnv) => (timed(NODE, [BIN, 'plan', big.recipe, '--repo', big.dir], big.dir, { env }).stdout.length / 1e6).toFixed(1);
    const rows150 = [
      planRow(`colour off (${megabytes(colourOff())} MB of text)`, off),
      planRow(`colour on (${megabytes(colourOn())} MB with escapes)`, on, off),
    ];
    console.log('');
    console.log(table([`plan, ${JOBS} jobs / ${FILES} files`, 'time', 'CPU', 'peak RSS', 'vs colour off (time / CPU)'], rows150));

    // Interleaved (baseline, off, on, baseline, …): a busy machine slows all three alike.
    const before: Run[] = [];
    const startOff: Run[] = [];
    const startOn: Run[] = [];
    for (let i = 0; i < RUNS * 2; i++) {
      if (baseline) before.push(...samples(baseline.bin, small.recipe, small.dir, colourOff(), 1));
      startOff.push(...samples(BIN, small.recipe, small.dir, colourOff(), 1));
      startOn.push(...samples(BIN, small.recipe, small.dir, colourOn(), 1));
    }
    const rows = [planRow('this build, colour off', startOff, baseline ? before : undefined), planRow('this build, colour on', startOn, startOff)];
    if (baseline) rows.unshift(planRow(`baseline (${baseSpec}), colour off`, before));
    console.log('');
    console.log(table(['plan start-up, 1 file', 'time', 'CPU', 'peak RSS', 'ratio (time / CPU)'], rows));
    if (!baseline) console.log('\n(set SCION_BENCH_BASELINE=<git revision or build folder> to compare colour-off start-up with an earlier build)');
  } finally {
    baseline?.cleanup();
    for (const r of [big, small]) {
      rmSync(r.dir, { recursive: true, force: true });
      rmSync(r.recipe, { force: true });
    }
  }
}
