// scion run end to end on a synthetic 30,000-file repository (3,000 folders, TS-like files, packed
// with `git gc`), against native git doing the same job in the same run:
//   native = `git worktree add -b` + in-place replace of the matching files + `git commit -a`
//   (a) a replace that changes 100 files        (object level: no files on disk)
//   (b) a replace that changes 3,000 files
//   (c) four `each` jobs of 500 changes each      (native: four worktrees, one after another)
//   (d) a replace of 100 files plus a `run` step  (a full linked worktree is checked out)
// Each scion run is a fresh `node bin/scion.js` process (so the timing includes start-up and opening
// the pack); peak RSS comes from /usr/bin/time. Medians of 3. Needs `npm run build` first.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = 'runner-30k-v1';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/scion.js');
const RUNS = 3;
const HAS_TIME = existsSync('/usr/bin/time');
const PKGS = 30;
const MODS_PER_PKG = 100;
const FILES_PER_MOD = 10;

const cleanEnv = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) e[k] = v;
  return { ...e, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', NO_COLOR: '1', CI: '1' };
};

function timed(cmd: string, args: string[], cwd: string): { seconds: number; rssKB: number } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(HAS_TIME ? '/usr/bin/time' : cmd, HAS_TIME ? ['-f', '@@rss %M', cmd, ...args] : args, {
    cwd,
    env: cleanEnv(),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const m = /@@rss (\d+)/.exec(r.stderr);
  return { seconds, rssKB: m ? Number(m[1]) : 0 };
}

const sh = (cwd: string, script: string) => execFileSync('/bin/sh', ['-c', script], { cwd, env: cleanEnv(), stdio: 'pipe', maxBuffer: 1 << 28 });

// ---- the synthetic repository ---------------------------------------------------------------

/** File i's path: packages/pkgP/src/modM/fileF.ts. */
function filePath(i: number): string {
  const mod = Math.floor(i / FILES_PER_MOD);
  return `packages/pkg${Math.floor(mod / MODS_PER_PKG)}/src/mod${mod}/file${i % FILES_PER_MOD}.ts`;
}

/** Which markers a file carries: A in 100 files, B in 3,000, C in 500 files of each of pkg0–pkg3. */
function markers(i: number): string[] {
  const out: string[] = [];
  if (i % 300 === 7) out.push('markerA');
  if (i % 10 === 3) out.push('markerB');
  const pkg = Math.floor(i / (MODS_PER_PKG * FILES_PER_MOD));
  if (pkg < 4 && i % 2 === 0) out.push('markerC');
  return out;
}

function content(i: number): string {
  const names = ['user', 'order', 'cart', 'price', 'config', 'service', 'handler', 'cache', 'event', 'token'];
  const a = names[i % names.length]!;
  let s = `import { ${a} } from '../${a}.js';\nimport { log } from '../../log.js';\n\n`;
  for (let k = 0; k < 6 + (i % 7); k++) {
    s +=
      `export function ${a}Step${k}(input: unknown, limit = ${(i * 7 + k) % 100}): number {\n` +
      `  if (!input) {\n    log('missing ${a} in step ${k}');\n    return 0;\n  }\n  return limit * ${k};\n}\n\n`;
  }
  for (const m of markers(i)) s += `export const ${m}Value = ${m}(${i});\n`;
  return s;
}

export function syntheticRepo(): string {
  const dir = join(tmpdir(), `scion-bench-${VERSION}`);
  if (existsSync(join(dir, '.git', 'scion-bench-ready'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < PKGS * MODS_PER_PKG * FILES_PER_MOD; i++) {
    const file = join(dir, filePath(i));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content(i));
  }
  sh(dir, 'git init -q -b main && git add -A && git -c user.name=b -c user.email=b@b commit -qm synthetic && git gc -q');
  writeFileSync(join(dir, '.git', 'scion-bench-ready'), '');
  return dir;
}

// ---- scenarios ------------------------------------------------------------------------------

interface Scenario {
  readonly id: string;
  readonly label: string;
  readonly recipe: string;
  /** Native git doing the same, in the repository: returns the shell script. */
  readonly native: (n: number) => string;
}

const nativeJob = (marker: string, branch: string, scope = '.') =>
  `git worktree add -q -b ${branch} ../wt-${branch} main && cd ../wt-${branch} && ` +
  `git grep -l ${marker}Value -- ${scope} | xargs sed -i ` +
  `'s/${marker}Value = ${marker}(/${marker}Value = renamed(/' && git -c user.name=b -c user.email=b@b commit -qam bench`;

const replace = (marker: string) => `  - replace: { old_string: "${marker}Value = ${marker}(", new_string: "${marker}Value = renamed(" }\n`;

const SCENARIOS: Scenario[] = [
  { id: 'a', label: 'replace, 100 files changed', recipe: `name: bench-a\nsteps:\n${replace('markerA')}`, native: (n) => nativeJob('markerA', `na${n}`) },
  { id: 'b', label: 'replace, 3,000 files changed', recipe: `name: bench-b\nsteps:\n${replace('markerB')}`, native: (n) => nativeJob('markerB', `nb${n}`) },
  {
    id: 'c',
    label: '4 each jobs x 500 changes',
    recipe: `name: bench-c\njobs:\n  - each: "packages/pkg[0-3]"\nsteps:\n${replace('markerC')}`,
    native: (n) => [0, 1, 2, 3].map((p) => `(${nativeJob('markerC', `nc${n}p${p}`, `packages/pkg${p}`)})`).join(' && '),
  },
  {
    id: 'd',
    label: '100 files + run step (worktree)',
    recipe: `name: bench-d\nsteps:\n${replace('markerA')}  - run: "true"\n`,
    native: (n) => nativeJob('markerA', `nd${n}`),
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function bench(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/cli/process.js'))) throw new Error('Run `npm run build` first: the benchmark runs bin/scion.js.');
  const t0 = Date.now();
  const repo = syntheticRepo();
  console.log(`synthetic repository: ${repo} (${((Date.now() - t0) / 1000).toFixed(1)} s to prepare)`);
  const work = mkdtempSync(join(tmpdir(), 'scion-bench-run-'));
  const rows: string[][] = [];
  try {
    for (const s of SCENARIOS) {
      const recipe = join(work, `${s.id}.yaml`);
      writeFileSync(recipe, s.recipe);
      const ours: { seconds: number; rssKB: number }[] = [];
      const theirs: { seconds: number; rssKB: number }[] = [];
      for (let n = 0; n < RUNS; n++) {
        // Fresh clone each time (hard links: cheap), so every run writes its branch anew.
        const clone = join(work, `${s.id}-${n}`, 'repo');
        mkdirSync(dirname(clone), { recursive: true });
        sh(work, `git clone -q --local ${repo} ${clone}`);
        theirs.push(timed('/bin/sh', ['-c', s.native(n)], clone));
        const report = join(work, `${s.id}-${n}.json`);
        ours.push(timed('node', [BIN, 'run', recipe, '--repo', clone, '--report', report], clone));
        const rep = JSON.parse(readFileSync(report, 'utf8')) as { jobs: { status: string; files: unknown[] }[] };
        const files = rep.jobs.reduce((k, j) => k + j.files.length, 0);
        if (rep.jobs.some((j) => j.status !== 'changed')) throw new Error(`scenario ${s.id}: ${JSON.stringify(rep.jobs.map((j) => j.status))}`);
        if (n === 0) console.log(`(${s.id}) ${rep.jobs.length} job(s), ${files} files changed`);
        rmSync(dirname(clone), { recursive: true, force: true });
      }
      const a = median(ours.map((x) => x.seconds));
      const b = median(theirs.map((x) => x.seconds));
      rows.push([
        `(${s.id}) ${s.label}`,
        `${a.toFixed(2)} s`,
        `${b.toFixed(2)} s`,
        `${(a / b).toFixed(2)}x`,
        `${Math.round(Math.max(...ours.map((x) => x.rssKB)) / 1024)} MB`,
        `${Math.round(Math.max(...theirs.map((x) => x.rssKB)) / 1024)} MB`,
      ]);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const head = ['scenario', 'scion', 'native git', 'ratio', 'scion peak RSS', 'git peak RSS'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log([line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
  console.log(`medians of ${RUNS}; ratio = scion / native (below 1: scion is faster)`);
}
