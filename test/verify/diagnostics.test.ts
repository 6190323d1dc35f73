// The parser against the REAL output of tsc and eslint (run here on a fixture made in a temp folder,
// from this repository's own node_modules), and against realistic samples of the other formats.
import { execFileSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDiagnostics, stripAnsi } from '../../src/verify/diagnostics.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const BIN = join(new URL('../..', import.meta.url).pathname, 'node_modules', '.bin');
const cleanups = cleanupAfterEach();

async function fixture(files: Record<string, string>): Promise<string> {
  const top = await realpath(await mkdtemp(join(tmpdir(), 'scion-diag-')));
  cleanups.push(() => rm(top, { recursive: true, force: true }));
  for (const [p, text] of Object.entries(files)) {
    await mkdir(dirname(join(top, p)), { recursive: true });
    await writeFile(join(top, p), text);
  }
  return top;
}

/** Runs a tool that is expected to fail; returns what it printed (stdout and stderr). */
function failing(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  try {
    execFileSync(join(BIN, cmd), args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  } catch (e) {
    // execFileSync's error carries the whole spawnSync result.
    const r = e as Partial<SpawnSyncReturns<string>>;
    return `${r.stdout ?? ''}${r.stderr ?? ''}`;
  }
  throw new Error(`${cmd} ${args.join(' ')} passed`);
}

const TS_FILES = {
  'repo/packages/app/tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ES2022' },
    files: ['src/a.ts', 'src/b.ts', '../../../lib/outside.ts'],
  }),
  'repo/packages/app/src/a.ts': 'export function name(x: number): string {\n  return x;\n}\n',
  'repo/packages/app/src/b.ts': [
    "import { name } from './a.js';",
    'const n: number = name(1);',
    'interface P { a: number }',
    'const p: P = { a: 1, b: 2 };',
    'export { n, p };',
    '',
  ].join('\n'),
  'lib/outside.ts': 'export const bad: number = "s";\n',
};

describe('TypeScript', () => {
  for (const pretty of [false, true]) {
    it(`reads tsc's real output (--pretty ${pretty}), relative to the command's folder, and drops files outside the repository`, async () => {
      const top = await fixture(TS_FILES);
      const root = join(top, 'repo');
      const cwd = join(root, 'packages', 'app');
      const out = failing('tsc', ['-p', '.', '--pretty', String(pretty)], cwd, pretty ? { FORCE_COLOR: '1' } : {});
      if (pretty) expect(out).toContain('\u001b[');
      expect(out).toContain('outside.ts');
      const d = parseDiagnostics(out, { cwd, root });
      expect(d.map((x) => [x.file, x.line, x.col, x.severity, x.code, x.source])).toEqual([
        ['packages/app/src/a.ts', 2, 3, 'error', 'TS2322', 'tsc'],
        ['packages/app/src/b.ts', 2, 7, 'error', 'TS2322', 'tsc'],
        ['packages/app/src/b.ts', 4, 22, 'error', 'TS2353', 'tsc'],
      ]);
      expect(d[0]!.message).toBe("Type 'number' is not assignable to type 'string'.");
      for (const x of d) expect(x.message).not.toContain('\u001b');
    });
  }

  it('keeps the indented lines that continue a message', () => {
    const out = [
      "src/x.ts(3,7): error TS2322: Type '{ a: string; }' is not assignable to type 'P'.",
      "  Types of property 'a' are incompatible.",
      "    Type 'string' is not assignable to type 'number'.",
      "src/x.ts(9,1): error TS2304: Cannot find name 'q'.",
    ].join('\n');
    const d = parseDiagnostics(out, { cwd: '/r', root: '/r' });
    expect(d).toHaveLength(2);
    expect(d[0]!.message).toBe(
      "Type '{ a: string; }' is not assignable to type 'P'.\nTypes of property 'a' are incompatible.\nType 'string' is not assignable to type 'number'.",
    );
  });
});

const ESLINT_FILES = {
  'repo/eslint.config.js': 'export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error", "no-var": "warn", semi: "error" } }];\n',
  'repo/package.json': '{"type":"module"}\n',
  'repo/src/b.js': 'var a = 1\nexport function f(b) { return 2; }\n',
  'repo/src/ok.js': 'export const ok = 1;\n',
  // What eslint-formatter-unix prints (ESLint 10 no longer ships it), as a local formatter.
  'repo/unix.cjs':
    `module.exports = (results) => results.flatMap((r) => r.messages.map((m) =>
  r.filePath + ':' + (m.line || 0) + ':' + (m.column || 0) + ': ' + m.message + ` +
    `' [' + (m.severity === 2 ? 'Error' : 'Warning') + (m.ruleId ? '/' + m.ruleId : '') + ']')).join('\\n') + '\\n';
`,
};

const ESLINT_EXPECTED = [
  ['src/b.js', 1, 1, 'warning', 'no-var', 'Unexpected var, use let or const instead'],
  ['src/b.js', 1, 5, 'error', 'no-unused-vars', "'a' is assigned a value but never used"],
  ['src/b.js', 1, 10, 'error', 'semi', 'Missing semicolon'],
  ['src/b.js', 2, 19, 'error', 'no-unused-vars', "'b' is defined but never used"],
];

describe('ESLint', () => {
  for (const color of [false, true]) {
    it(`reads the real stylish output${color ? ' in colour' : ''}`, async () => {
      const root = join(await fixture(ESLINT_FILES), 'repo');
      const out = failing('eslint', ['src'], root, color ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' });
      const d = parseDiagnostics(out, { cwd: root, root });
      expect(d.map((x) => [x.file, x.line, x.col, x.severity, x.code, x.message])).toEqual(ESLINT_EXPECTED);
      expect(d.every((x) => x.source === 'eslint')).toBe(true);
    });
  }

  it('reads the real unix output', async () => {
    const root = join(await fixture(ESLINT_FILES), 'repo');
    const out = failing('eslint', ['-f', './unix.cjs', 'src'], root);
    expect(out).toMatch(/src\/b\.js:1:5: .* \[Error\/no-unused-vars\]/);
    const d = parseDiagnostics(out, { cwd: root, root });
    // stylish drops a message's final full stop; unix prints the message as the rule gave it.
    expect(d.map((x) => [x.file, x.line, x.col, x.severity, x.code, x.message])).toEqual(ESLINT_EXPECTED.map((e) => [...e.slice(0, 5), `${e[5]}.`]));
  });
});

describe('the generic file:line:col: message', () => {
  const root = '/work/repo';
  const parse = (out: string, keep?: (p: string) => boolean) =>
    parseDiagnostics(out, { cwd: root, root, ...(keep ? { keep } : {}) }).map((d) => [d.file, d.line, d.col, d.severity, d.code ?? null, d.message]);

  it('gcc and clang', () => {
    const out = [
      'src/main.c: In function ‘main’:',
      'src/main.c:4:3: error: ‘y’ undeclared (first use in this function); did you mean ‘x’?',
      '    4 |   y = 2;',
      '      |   ^',
      '      |   x',
      'src/main.c:4:3: note: each undeclared identifier is reported only once for each function it appears in',
      'src/main.c:2:7: warning: unused variable ‘x’ [-Wunused-variable]',
      '/usr/include/stdio.h:10:1: error: something in a system header',
      'In file included from src/main.c:1:',
      "src/util.h:3:12: fatal error: 'missing.h' file not found",
      '1 error generated.',
    ].join('\n');
    expect(parse(out)).toEqual([
      ['src/main.c', 4, 3, 'error', null, '‘y’ undeclared (first use in this function); did you mean ‘x’?'],
      ['src/main.c', 4, 3, 'info', null, 'each undeclared identifier is reported only once for each function it appears in'],
      ['src/main.c', 2, 7, 'warning', '-Wunused-variable', 'unused variable ‘x’'],
      ['src/util.h', 3, 12, 'error', null, "'missing.h' file not found"],
    ]);
  });

  it('rustc --error-format=short, mypy, ruff, go vet', () => {
    const out = [
      'src/main.rs:2:9: error[E0308]: mismatched types: expected `u32`, found `&str`',
      'src/main.rs:5:9: warning: unused variable: `z`',
      'error: could not compile `demo` (bin "demo") due to 1 previous error',
      'pkg/a.py:3: error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]',
      'pkg/b.py:7:5: error: Name "q" is not defined  [name-defined]',
      'Found 2 errors in 2 files (checked 3 source files)',
      'pkg/c.py:1:8: F401 [*] `os` imported but unused',
      'pkg/c.py:4:1: E741 Ambiguous variable name: `l`',
      'Found 2 errors.',
      '# example.com/demo',
      'vet: ./cmd/main.go:9:2: fmt.Printf format %d has arg name of wrong type string',
      './cmd/main.go:12:5: unreachable code',
    ].join('\n');
    expect(parse(out)).toEqual([
      ['src/main.rs', 2, 9, 'error', 'E0308', 'mismatched types: expected `u32`, found `&str`'],
      ['src/main.rs', 5, 9, 'warning', null, 'unused variable: `z`'],
      ['pkg/a.py', 3, 0, 'error', 'assignment', 'Incompatible types in assignment (expression has type "str", variable has type "int")'],
      ['pkg/b.py', 7, 5, 'error', 'name-defined', 'Name "q" is not defined'],
      ['pkg/c.py', 1, 8, 'error', 'F401', '`os` imported but unused'],
      ['pkg/c.py', 4, 1, 'error', 'E741', 'Ambiguous variable name: `l`'],
      ['cmd/main.go', 9, 2, 'error', null, 'fmt.Printf format %d has arg name of wrong type string'],
      ['cmd/main.go', 12, 5, 'error', null, 'unreachable code'],
    ]);
  });

  it('keeps only what `keep` accepts, drops repeats, and stops at the limit', () => {
    const out = ['a.c:1:1: error: x', 'a.c:1:1: error: x', 'node_modules/m/i.d.ts:1:1: error: y', 'b.c:2:2: error: z', 'c.c:3:3: error: w'].join('\n');
    expect(parse(out, (p) => !p.startsWith('node_modules/')).map((d) => d[0])).toEqual(['a.c', 'b.c', 'c.c']);
    expect(parseDiagnostics(out, { cwd: root, root, limit: 2 }).map((d) => d.file)).toEqual(['a.c', 'node_modules/m/i.d.ts']);
  });

  it('strips colour and hyperlinks', () => {
    expect(stripAnsi('\u001b]8;;file:///x\u0007a.c\u001b]8;;\u0007:\u001b[1m1\u001b[0m')).toBe('a.c:1');
    expect(parse('\u001b[1ma.c:1:2:\u001b[0m \u001b[31merror:\u001b[0m bad\r\n')).toEqual([['a.c', 1, 2, 'error', null, 'bad']]);
  });
});
