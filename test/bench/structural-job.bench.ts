// The whole `astgrep` job against the tools people would otherwise run, in the same run, on the same
// files: console.log(…) → logger.info(…) over every JavaScript file of a git repository.
//  - scion:          `node bin/scion.js run recipe.yaml --repo <clone>`: read from git, rewrite,
//                    commit on a branch (start-up included); the clone's checkout is not touched.
//  - ast-grep CLI:   `ast-grep run -p … -r … -l js -U .` on a checkout of the same commit (same
//                    version as @ast-grep/napi); and the same followed by `git add -A && git commit`.
//  - jscodeshift:    `jscodeshift -t rename.js` (same version as scion's) on a checkout, with a
//                    transform doing the same rename (its default: one worker per core but one).
// The corpus is every JavaScript file of this project's node_modules (as structural.bench.ts picks
// them, without its cap: ~5,800 files, ~500 of them calling console.log) committed in one commit, or
// SCION_BENCH_REPO=/path/to/clone (its .js/.mjs/.cjs/.jsx files). Medians of SCION_BENCH_RUNS
// (default 3) for scion and the CLI; jscodeshift, an order of magnitude slower, runs once.
// Needs `npm run build`.
//
// Byte fidelity: for every file a tool changed, the lines of the original it did not keep (a line
// diff), leaving out the lines where a match's callee is (the rewritten span). scion should count 0;
// the CLI reprints the template, so a call whose arguments span lines is joined onto one.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Lang, parse } from '@ast-grep/napi';
import { diffLines } from 'diff';
import { jsCorpusFiles } from './structural.bench.js';
import { cleanEnv, mb, median, sh, Steps, table, timed, type Sample } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'scion.js');
const AST_GREP = join(ROOT, 'node_modules', '@ast-grep', 'cli', 'ast-grep');
const JSCODESHIFT = join(ROOT, 'node_modules', '.bin', 'jscodeshift');
const RUNS = Number(process.env.SCION_BENCH_RUNS ?? 3);
const JS = /\.(js|mjs|cjs|jsx)$/;
const PATTERN = 'console.log($$$A)';
const REWRITE = 'logger.info($$$A)';

const RECIPE = `name: bench-c2l
steps:
  - astgrep:
      rule: { pattern: "${PATTERN}" }
      fix: "${REWRITE}"
      language: javascript
`;

// The same rename for jscodeshift: every non-computed console.log(...) callee becomes logger.info.
const TRANSFORM = `export default function rename(file, api) {
  const j = api.jscodeshift;
  const root = j(file.source);
  const calls = root.find(j.CallExpression, {
    callee: { type: 'MemberExpression', computed: false, object: { type: 'Identifier', name: 'console' }, property: { type: 'Identifier', name: 'log' } },
  });
  if (calls.length === 0) return undefined;
  calls.forEach((p) => {
    p.node.callee = j.memberExpression(j.identifier('logger'), j.identifier('info'));
  });
  return root.toSource();
}
`;

const git = (cwd: string, ...args: string[]): string => sh(cwd, `git ${args.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ')}`).trimEnd();

/** The repository every run clones, and the JavaScript paths in it. */
function source(): { repo: string; name: string; files: string[]; cleanup: () => void } {
  const given = process.env.SCION_BENCH_REPO;
  if (given) {
    // The tree of HEAD, so a bare clone serves as well as a checkout.
    const files = git(given, 'ls-tree', '-r', '-z', '--name-only', 'HEAD')
      .split('\0')
      .filter((p) => JS.test(p));
    return { repo: given, name: given.split('/').filter(Boolean).pop() ?? given, files, cleanup: () => undefined };
  }
  const nm = join(ROOT, 'node_modules');
  const files = jsCorpusFiles(Number.POSITIVE_INFINITY);
  const repo = mkdtempSync(join(tmpdir(), 'scion-sg-job-corpus-'));
  for (const f of files) {
    mkdirSync(dirname(join(repo, f)), { recursive: true });
    cpSync(join(nm, f), join(repo, f));
  }
  sh(repo, 'git init -q -b main && git add -A && git -c user.name=bench -c user.email=bench@example.com commit -q -m corpus');
  return { repo, name: `node_modules JS ${files.length}`, files, cleanup: () => rmSync(repo, { recursive: true, force: true }) };
}

function clone(from: string, into: string): string {
  sh(tmpdir(), `git clone -q --local --no-hardlinks '${from}' '${into}'`);
  git(into, 'config', 'user.name', 'bench');
  git(into, 'config', 'user.email', 'bench@example.com');
  git(into, 'config', 'gc.auto', '0');
  return into;
}

/** The 0-based lines of `text` where a match's callee sits: the spans a rename may change. */
function calleeLines(text: string): Set<number> {
  const lines = new Set<number>();
  try {
    for (const m of parse(Lang.JavaScript, text).root().findAll(PATTERN)) {
      const callee = m.field('function') ?? m;
      lines.add(callee.range().start.line);
    }
  } catch {
    // A file napi cannot parse: every changed line counts as outside.
  }
  return lines;
}

interface Fidelity {
  readonly files: number;
  /** Files with a line changed outside the rewritten spans. */
  readonly filesOutside: number;
  readonly linesOutside: number;
  /** Lines the output has fewer than the original, over all files. */
  readonly linesLost: number;
}

/** How the changed files in `dir` differ from the originals in `repo` beyond the rewritten spans. */
function fidelity(original: (path: string) => string, changed: ReadonlyMap<string, string>): Fidelity {
  let filesOutside = 0;
  let linesOutside = 0;
  let linesLost = 0;
  for (const [path, after] of changed) {
    const before = original(path);
    const spans = calleeLines(before);
    let line = 0;
    let outside = 0;
    for (const part of diffLines(before, after)) {
      const n = part.count ?? 0;
      if (part.added) continue;
      if (part.removed) for (let k = 0; k < n; k++) if (!spans.has(line + k)) outside++;
      line += n;
    }
    const count = (s: string) => s.split('\n').length;
    linesLost += Math.max(0, count(before) - count(after));
    linesOutside += outside;
    if (outside > 0) filesOutside++;
  }
  return { files: changed.size, filesOutside, linesOutside, linesLost };
}

/** Paths `git status` lists as modified in a checkout, with their new text. */
function modified(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of git(dir, 'diff', '--name-only', '-z').split('\0').filter(Boolean)) out.set(p, readFileSync(join(dir, p), 'utf8'));
  return out;
}

const secs = (xs: readonly Sample[]): number => median(xs.map((x) => x.seconds));
const cpus = (xs: readonly Sample[]): number => median(xs.map((x) => x.cpu ?? 0));
const rss = (xs: readonly Sample[]): number => Math.max(...xs.map((x) => x.rssKB));

export default async function bench(): Promise<void> {
  const src = source();
  const work = mkdtempSync(join(tmpdir(), 'scion-sg-job-'));
  try {
    const recipeDir = join(work, 'recipe');
    mkdirSync(recipeDir);
    writeFileSync(join(recipeDir, 'recipe.yaml'), RECIPE);
    writeFileSync(join(recipeDir, 'rename.mjs'), TRANSFORM);
    const bytes = src.files.reduce((n, f) => n + Number(git(src.repo, 'cat-file', '-s', `HEAD:${f}`)), 0);
    const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(`corpus: ${src.name}, ${src.files.length} JavaScript files, ${(bytes / 1e6).toFixed(1)} MB; ${RUNS} runs each; load ${load()}\n`);

    const scion: Sample[] = [];
    const cli: Sample[] = [];
    const cliCommit: Sample[] = [];
    const jscs: Sample[] = [];
    let outputs: { scion: Map<string, string>; cli: Map<string, string>; jscs: Map<string, string> } | null = null;
    for (let i = 0; i < RUNS; i++) {
      // scion: the whole job, from a fresh process to the branch.
      const s = clone(src.repo, join(work, `scion-${i}`));
      const ran = timed(process.execPath, [BIN, 'run', join(recipeDir, 'recipe.yaml'), '--repo', s, '--no-cache'], s, { env: cleanEnv() });
      scion.push(ran);
      // The CLI on a checkout; then the same plus a commit of what it changed.
      const c = clone(src.repo, join(work, `cli-${i}`));
      const steps = new Steps();
      steps.run(AST_GREP, ['run', '-p', PATTERN, '-r', REWRITE, '-l', 'js', '-U', '.'], c);
      cli.push(steps.done());
      steps.git(c, ['add', '-A']);
      steps.git(c, ['commit', '-q', '-m', 'console.log to logger.info']);
      cliCommit.push(steps.done());
      // jscodeshift on a checkout, the first time only.
      if (i === 0) {
        const jc = clone(src.repo, join(work, 'jscs'));
        const args = ['-t', join(recipeDir, 'rename.mjs'), '--extensions=js,mjs,cjs,jsx', '--parser=babel', '--silent', '.'];
        jscs.push(timed(JSCODESHIFT, args, jc, { okCodes: [0, 1] }));
        git(s, 'checkout', '-q', 'scion/bench-c2l');
        git(c, 'reset', '-q', 'HEAD~1');
        outputs = { scion: new Map(), cli: modified(c), jscs: modified(jc) };
        for (const p of git(s, 'diff', '--name-only', '-z', 'main', 'HEAD').split('\0').filter(Boolean)) outputs.scion.set(p, readFileSync(join(s, p), 'utf8'));
        rmSync(jc, { recursive: true, force: true });
      }
      for (const d of [s, c]) rmSync(d, { recursive: true, force: true });
    }

    const base = secs(scion);
    const baseCpu = cpus(scion);
    const row = (tool: string, xs: Sample[], target: string): string[] => [
      tool,
      secs(xs).toFixed(2),
      `${(secs(xs) / base).toFixed(2)}×`,
      cpus(xs).toFixed(2),
      baseCpu > 0 ? `${(cpus(xs) / baseCpu).toFixed(2)}×` : '–',
      mb(rss(xs)),
      target,
    ];
    console.log(
      table(
        ['tool', 'median wall s', 'tool / scion (wall)', 'median CPU s', 'tool / scion (CPU)', 'peak RSS', 'target for scion'],
        [
          row('scion run (read, rewrite, commit)', scion, ''),
          row('ast-grep run -U (rewrite only)', cli, 'within 1.5× (ratio ≥ 0.67×)'),
          row('ast-grep run -U + git add/commit', cliCommit, ''),
          row('jscodeshift -t (same rename)', jscs, 'at least 5× faster (ratio ≥ 5×)'),
        ],
      ),
    );
    const list = (xs: Sample[]) => xs.map((x) => x.seconds.toFixed(2)).join(' ');
    console.log(`\nsamples (wall s): scion ${list(scion)}; CLI ${list(cli)}; jscodeshift ${list(jscs)}; load after ${load()}\n`);

    if (outputs) {
      const raw = (p: string) =>
        spawnSync('git', ['cat-file', 'blob', `HEAD:${p}`], { cwd: src.repo, env: cleanEnv(), maxBuffer: 1 << 28 }).stdout.toString('utf8');
      const rows = (
        [
          ['scion', outputs.scion],
          ['ast-grep CLI', outputs.cli],
          ['jscodeshift', outputs.jscs],
        ] as const
      ).map(([tool, changed]) => {
        const f = fidelity(raw, changed);
        return [tool, String(f.files), String(f.filesOutside), String(f.linesOutside), String(f.linesLost)];
      });
      const same = [...outputs.cli].filter(([p, t]) => outputs!.scion.get(p) === t).length;
      console.log(table(['tool', 'files changed', 'files changed outside the spans', 'lines changed outside the spans', 'lines lost'], rows));
      console.log(`\nscion and the CLI wrote the same bytes in ${same} of the CLI's ${outputs.cli.size} files.`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    src.cleanup();
  }
}
