// The astgrep engine against the ast-grep CLI (same version) on real code: the JavaScript files of
// this project's node_modules, copied to a temporary folder. Each rule is run three ways on a fresh
// copy: `ast-grep scan --rule r.yml -U` (the baseline, all cores), scion's engine on the main thread,
// and scion's engine through a StructuralPool of 2 child processes. Files are read from disk and
// changed files written back in every case. The table also says how many files each changed and how
// many of those scion wrote byte for byte as the CLI did (the rest differ where scion keeps layout
// or rewrites nested matches; see test/structural/layout.test.ts).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rewriteFile, mayMatch } from '../../src/structural/astgrep.js';
import { loadAstgrep } from '../../src/structural/load.js';
import { StructuralPool } from '../../src/structural/pool.js';
import { textFiles } from './corpus.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AST_GREP = join(ROOT, 'node_modules', '@ast-grep', 'cli', 'ast-grep');
const MAX_FILES = 3_500;

const RULES: readonly { name: string; yaml: string }[] = [
  { name: 'console.log → logger.info', yaml: `rule: { pattern: 'console.log($$$A)' }\nfix: 'logger.info($$$A)'` },
  { name: '$A == null → $A === null', yaml: `rule: { pattern: '$A == null' }\nfix: '$A === null'` },
  { name: 'kind + regex (no prefilter)', yaml: `rule: { kind: string, regex: '^"use strict"$' }\nfix: "'use strict'"` },
];

/**
 * The corpus's paths under node_modules: JavaScript files up to 200 KB, without ast-grep's own, hidden
 * folders or nested node_modules (which the ast-grep CLI and jscodeshift would skip), the first `max` by path.
 */
export function jsCorpusFiles(max = MAX_FILES): string[] {
  return textFiles(join(ROOT, 'node_modules'))
    .filter((f) => /\.(js|cjs|mjs)$/.test(f.path) && f.size <= 200_000 && !f.path.includes('@ast-grep'))
    .filter((f) => !f.path.split('/').some((seg) => seg.startsWith('.') || seg === 'node_modules'))
    .slice(0, max)
    .map((f) => f.path);
}

function corpus(): { dir: string; files: string[] } {
  const nm = join(ROOT, 'node_modules');
  const files = jsCorpusFiles();
  const dir = mkdtempSync(join(tmpdir(), 'scion-sg-corpus-'));
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(nm, f), join(dir, f));
  }
  return { dir, files };
}

function copy(from: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'scion-sg-run-'));
  cpSync(from, dir, { recursive: true });
  return dir;
}

const seconds = (t0: number): number => (performance.now() - t0) / 1000;

export default async function bench(): Promise<void> {
  const { dir, files } = corpus();
  const bytes = files.reduce((n, f) => n + readFileSync(join(dir, f)).length, 0);
  console.log(`corpus: ${files.length} JavaScript files, ${(bytes / 1e6).toFixed(1)} MB (node_modules)\n`);
  // Wall seconds, and CPU seconds (user + system) where they can be measured: on a shared machine CPU is the steadier figure.
  console.log('| rule | CLI s (cpu) | scion 1 thread s (cpu) | ratio | scion pool(2) s | ratio | files changed (CLI / scion) | same bytes |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const rule of RULES) {
    const yaml = `id: bench\nlanguage: javascript\n${rule.yaml}\n`;
    // CLI.
    const cliDir = copy(dir);
    writeFileSync(join(cliDir, '..', 'bench-rule.yml'), yaml);
    let t0 = performance.now();
    const run = spawnSync('/usr/bin/time', ['-f', '@@cpu %U %S', AST_GREP, 'scan', '--rule', join(cliDir, '..', 'bench-rule.yml'), '-U', '.'], {
      cwd: cliDir,
      maxBuffer: 1 << 30,
    });
    const cli = seconds(t0);
    if (run.status !== 0) throw new Error(`ast-grep failed: ${run.stderr.toString().slice(-2000)}`);
    const [, user, sys] = /@@cpu ([\d.]+) ([\d.]+)/.exec(run.stderr.toString()) ?? ['', '0', '0'];
    const cliCpu = Number(user) + Number(sys);
    // scion, one thread.
    const loaded = await loadAstgrep({ kind: 'file', file: 'bench-rule.yml', text: yaml }, { fromDir: ROOT });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
    const oneDir = copy(dir);
    t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let changed = 0;
    for (const f of files) {
      const path = join(oneDir, f);
      const b = readFileSync(path);
      if (!mayMatch(loaded.value, f, b)) continue;
      const r = rewriteFile(loaded.value, { path: f, bytes: b });
      if (r.ok && r.value.status === 'changed') {
        writeFileSync(path, r.value.after);
        changed++;
      }
    }
    const one = seconds(t0);
    const used = process.cpuUsage(cpu0);
    const oneCpu = (used.user + used.system) / 1e6;
    // scion, two child processes (started before the clock: a step keeps its pool for all its files).
    const pool = new StructuralPool(2);
    const job = { kind: 'astgrep' as const, source: { kind: 'file' as const, file: 'bench-rule.yml', text: yaml }, fromDir: ROOT };
    await Promise.all([0, 1].map((i) => pool.run(job, { path: `warm${i}.js`, bytes: new TextEncoder().encode('x') })));
    const poolDir = copy(dir);
    t0 = performance.now();
    const queue = [...files];
    await Promise.all(
      [0, 1, 2, 3].map(async () => {
        for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
          const path = join(poolDir, f);
          const b = readFileSync(path);
          if (!mayMatch(loaded.value, f, b)) continue;
          const r = await pool.run(job, { path: f, bytes: b });
          if (r.ok && r.value.status === 'changed') writeFileSync(path, r.value.after);
        }
      }),
    );
    const pooled = seconds(t0);
    pool.close();
    let cliChanged = 0;
    let same = 0;
    for (const f of files) {
      const original = readFileSync(join(dir, f));
      const c = readFileSync(join(cliDir, f));
      const s = readFileSync(join(oneDir, f));
      if (!c.equals(original)) cliChanged++;
      if (!c.equals(original) && c.equals(s)) same++;
    }
    const cells = [
      rule.name,
      `${cli.toFixed(2)} (${cliCpu.toFixed(2)})`,
      `${one.toFixed(2)} (${oneCpu.toFixed(2)})`,
      `${(one / cli).toFixed(2)}×`,
      pooled.toFixed(2),
      `${(pooled / cli).toFixed(2)}×`,
    ];
    console.log(`| ${cells.join(' | ')} | ${cliChanged} / ${changed} | ${same} |`);
    for (const d of [cliDir, oneDir, poolDir]) rmSync(d, { recursive: true, force: true });
  }
  rmSync(dir, { recursive: true, force: true });
}
