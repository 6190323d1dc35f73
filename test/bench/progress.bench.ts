// The live renderer against plain output (issue F): one `each` recipe of 150 jobs (150 packages,
// 10 changed files each), run through bin/scion.js under a real pseudo-terminal (`script -qfc`),
// once as a person at a terminal sees it (live view) and once as a CI log (CI=true: plain lines).
// Both go through the same pty, so the only difference is the renderer. The branches are deleted
// between runs so every run does the same work. Medians of 5. Needs `npm run build` first.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/scion.js');
const RUNS = 5;
const JOBS = 150;
const FILES = 10;

const baseEnv = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_') && k !== 'CI' && !k.startsWith('GITHUB_')) e[k] = v;
  return { ...e, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' };
};

const sh = (cwd: string, script: string) => execFileSync('/bin/sh', ['-c', script], { cwd, env: baseEnv(), stdio: 'pipe', maxBuffer: 1 << 28 });

function makeRepo(): { dir: string; recipe: string } {
  const dir = mkdtempSync(join(tmpdir(), 'scion-bench-progress-'));
  for (let p = 0; p < JOBS; p++) {
    for (let f = 0; f < FILES; f++) {
      const file = join(dir, `packages/pkg${String(p).padStart(3, '0')}/src/file${f}.ts`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `import { log } from './legacy';\nexport function f${f}() {\n  legacyLog('pkg${p} file${f}');\n}\n`);
    }
  }
  sh(dir, 'git init -q -b main && git add -A && git -c user.name=b -c user.email=b@x commit -qm init');
  const recipe = join(dir, '..', `${dir.split('/').pop()}.yaml`);
  writeFileSync(recipe, 'name: big\njobs:\n  - each: "packages/*"\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(", replace_all: true }\n');
  return { dir, recipe };
}

/** Wall time of one run under a pseudo-terminal; `ci` makes scion print plain lines. */
function timedRun(dir: string, recipe: string, ci: boolean): number {
  sh(dir, "git for-each-ref --format='delete %(refname)' refs/heads/scion | git update-ref --stdin");
  const cmd = `${ci ? 'CI=true ' : ''}node ${BIN} run ${recipe} --repo ${dir} > /dev/null`;
  const t0 = process.hrtime.bigint();
  // stdout of scion goes to /dev/null; stderr (the progress) is the pty.
  const r = spawnSync('script', ['-qfec', cmd, '/dev/null'], { cwd: dir, env: baseEnv(), encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`scion failed (${r.status}): ${r.stdout.slice(-2000)}`);
  return seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/cli/process.js'))) throw new Error('Run `npm run build` first: the benchmark runs bin/scion.js.');
  const { dir, recipe } = makeRepo();
  try {
    timedRun(dir, recipe, true); // warm the page cache and pack nothing twice
    const plain: number[] = [];
    const live: number[] = [];
    // Interleaved, so a slow phase of the machine hits both.
    for (let i = 0; i < RUNS; i++) {
      plain.push(timedRun(dir, recipe, true));
      live.push(timedRun(dir, recipe, false));
    }
    const p = median(plain);
    const l = median(live);
    console.log(`| ${JOBS} jobs × ${FILES} files, under script(1) | median of ${RUNS} | runs |`);
    console.log('|---|---|---|');
    console.log(`| plain (CI=true) | ${p.toFixed(2)} s | ${plain.map((x) => x.toFixed(2)).join(' ')} |`);
    console.log(`| live view (TTY) | ${l.toFixed(2)} s | ${live.map((x) => x.toFixed(2)).join(' ')} |`);
    console.log(`| live / plain | ${(l / p).toFixed(3)} | target ≤ 1.05 |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(recipe, { force: true });
  }
}
