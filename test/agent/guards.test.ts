// The guards on the model's edits, one change at a time: what each refuses, what it lets through,
// how test cases are counted (structurally per language, textually when a language package is
// missing), and a recipe turning one guard off by name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFilesOf, DEFAULT_GUARDS, Guards, type GuardSettings } from '../../src/agent/guards/index.js';
import { TestCounter } from '../../src/agent/guards/count.js';

const open: Guards[] = [];
afterEach(() => {
  for (const g of open.splice(0)) g.close();
});

function guards(over: Partial<GuardSettings> = {}): Guards {
  const g = new Guards({ ...DEFAULT_GUARDS, ...over }, () => {});
  open.push(g);
  return g;
}

const b = (s: string) => Buffer.from(s);

async function verdict(g: Guards, path: string, before: string | null, after: string | null) {
  const f = await g.vet({ path, before: before === null ? null : b(before), after: after === null ? null : b(after) });
  return f === null ? null : { kind: f.kind, guard: f.data?.['guard'], message: f.message };
}

const JS_TEST = `import { describe, it, expect } from 'vitest';
describe('math', () => {
  it('adds', () => expect(1 + 1).toBe(2));
  it.each([[1, 2]])('doubles %i', (a, b) => expect(a * 2).toBe(b));
  test('zero', () => expect(0).toBe(0));
});
`;

describe('guards', () => {
  it('refuse deleting or emptying a test file, and let a helper file be created or changed', async () => {
    const g = guards();
    expect(await verdict(g, 'src/math.test.ts', JS_TEST, null)).toMatchObject({ kind: 'guard', guard: 'testFiles' });
    expect(await verdict(g, 'src/math.test.ts', JS_TEST, '')).toMatchObject({ guard: 'testFiles' });
    // Comments only count as empty: "moved elsewhere" leaves no test behind.
    const moved = await verdict(g, 'test/a.spec.js', JS_TEST, '// moved to a.disabled.js\n/* nothing here */\n');
    expect(moved).toMatchObject({ guard: 'testFiles' });
    expect(moved!.message).toContain('test/a.spec.js');
    expect(moved!.message).toMatch(/change the code under test instead/);
    expect(await verdict(g, 'tests/test_math.py', 'def test_a():\n    assert 1\n', '# gone\n')).toMatchObject({ guard: 'testFiles' });
    // Not a test file, or a new one: allowed.
    expect(await verdict(g, 'src/math.ts', 'export const a = 1;\n', '')).toBeNull();
    expect(await verdict(g, 'src/new.test.ts', null, JS_TEST)).toBeNull();
  });

  it('count JavaScript test cases structurally (it/test/describe with .each once), refusing a drop only', async () => {
    const g = guards();
    const fewer = JS_TEST.replace("  it('adds', () => expect(1 + 1).toBe(2));\n", '');
    const r = await verdict(g, 'src/math.test.ts', JS_TEST, fewer);
    expect(r).toMatchObject({ guard: 'testCount' });
    expect(r!.message).toContain('from 4 test cases to 3');
    // A call renamed in a comment or a string is not a test: the count is of calls.
    const inString = JS_TEST.replace("it('adds', () => expect(1 + 1).toBe(2));", 'const s = "it(\'adds\', () => 1)";');
    expect((await verdict(g, 'src/math.test.ts', JS_TEST, inString))?.guard).toBe('testCount');
    // Changing an assertion, or adding a test, keeps or raises the count.
    expect(await verdict(g, 'src/math.test.ts', JS_TEST, JS_TEST.replace('toBe(2)', 'toBe(2.0)'))).toBeNull();
    expect(await verdict(g, 'src/math.test.ts', JS_TEST, `${JS_TEST}it('more', () => {});\n`)).toBeNull();
  });

  it('count Python, Go and Java test cases through their ast-grep language packages', async () => {
    const g = guards();
    const py = 'import pytest\n\ndef test_a():\n    assert 1\n\nclass TestB:\n    def test_b(self):\n        pass\n\n    def helper(self):\n        pass\n';
    const pyFewer = py.replace('    def test_b(self):\n        pass\n\n', '');
    expect(await verdict(g, 'tests/test_b.py', py, pyFewer)).toMatchObject({ guard: 'testCount' });
    expect((await verdict(g, 'tests/test_b.py', py, pyFewer))!.message).toContain('from 2 test cases to 1');
    // A test_ name inside a docstring is not a definition.
    const doc = py.replace('    def test_b(self):\n        pass\n', '    """def test_b(self): pass"""\n');
    expect((await verdict(g, 'tests/test_b.py', py, doc))?.guard).toBe('testCount');

    const go = 'package m\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {}\n\nfunc helper() {}\n';
    expect(await verdict(g, 'm/m_test.go', go, go.replace('func TestB(t *testing.T) {}\n', ''))).toMatchObject({ guard: 'testCount' });

    const java = [
      'class MathTest {',
      '  @Test void a() {}',
      '  @ParameterizedTest @ValueSource(ints = {1}) void b(int x) {}',
      '  @Override public String toString() { return ""; }',
      '}',
      '',
    ].join('\n');
    const r = await verdict(g, 'src/test/java/MathTest.java', java, java.replace('  @Test void a() {}\n', ''));
    expect(r).toMatchObject({ guard: 'testCount' });
    expect(r!.message).toContain('from 2 test cases to 1');
  });

  it('fall back to a line-anchored textual count when a language package is missing, and say so', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'scion-nopacks-'));
    const logs: string[] = [];
    const counter = new TestCounter((m) => logs.push(m), empty);
    try {
      const py = 'def test_a():\n    pass\n\nasync def test_b():\n    pass\n\n# def test_c(): commented out\n';
      expect(await counter.count('tests/test_x.py', b(py), py)).toEqual({ cases: 2, how: 'textual' });
      const go = 'package m\nfunc TestA(t *testing.T) {}\nfunc helper() {}\n';
      expect(await counter.count('m_test.go', b(go), go)).toEqual({ cases: 1, how: 'textual' });
      expect(logs.join('\n')).toContain('install @ast-grep/lang-python beside scion');
      // JavaScript needs no package: still structural.
      const js = "it('a', () => {});\n// it('b')\n";
      expect(await counter.count('a.test.js', b(js), js)).toEqual({ cases: 1, how: 'structural' });
    } finally {
      counter.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuse new skip and focus markers in each language, and let existing ones be moved or removed', async () => {
    const g = guards();
    const cases: [string, string, string][] = [
      ['a.test.ts', "it('x', () => {});\n", "it.skip('x', () => {});\n"],
      ['a.test.ts', "it('x', () => {});\n", "it.only('x', () => {});\n"],
      ['a.test.ts', "describe('x', () => {});\n", "xdescribe('x', () => {});\n"],
      ['a.test.ts', "it('x', () => {});\n", "xit('x', () => {});\n"],
      ['a.test.ts', "it('x', () => {});\n", "it('x', () => {});\nit.todo('later');\n"],
      ['tests/test_a.py', 'def test_a():\n    pass\n', 'import pytest\n@pytest.mark.skip(reason="flaky")\ndef test_a():\n    pass\n'],
      ['tests/test_a.py', 'def test_a():\n    pass\n', 'import unittest\n@unittest.skip("later")\ndef test_a():\n    pass\n'],
      ['src/test/java/ATest.java', 'class ATest { @Test void a() {} }\n', 'class ATest { @Disabled @Test void a() {} }\n'],
      ['src/test/java/ATest.java', 'class ATest { @Test void a() {} }\n', 'class ATest { @Ignore @Test void a() {} }\n'],
      ['a_test.go', 'func TestA(t *testing.T) {\n}\n', 'func TestA(t *testing.T) {\n\tt.Skip("later")\n}\n'],
    ];
    for (const [path, before, after] of cases) expect(await verdict(g, path, before, after), `${path}: ${after}`).toMatchObject({ guard: 'skips' });
    // Removing a marker, or code that merely looks alike (a method named fit, a query's skip), is fine.
    expect(await verdict(g, 'a.test.ts', "it.skip('x', () => {});\n", "it('x', () => {});\n")).toBeNull();
    expect(await verdict(g, 'src/model.ts', 'model.train();\n', 'model.fit(x);\nquery.skip(10);\n')).toBeNull();
  });

  it('refuse new suppression comments, in any file of the language', async () => {
    const g = guards();
    const cases: [string, string][] = [
      ['src/a.ts', '// @ts-ignore\n'],
      ['src/a.ts', '// @ts-expect-error\n'],
      ['src/a.ts', '// @ts-nocheck\n'],
      ['src/a.js', '/* eslint-disable */\n'],
      ['src/a.js', '// eslint-disable-next-line no-undef\n'],
      ['src/a.py', 'x = f()  # type: ignore\n'],
      ['src/a.py', 'import os  # noqa\n'],
      ['src/a.go', 'x := f() //nolint\n'],
    ];
    for (const [path, added] of cases) {
      const r = await verdict(g, path, 'const a = 1;\n', `${added}const a = 1;\n`);
      expect(r, `${path}: ${added}`).toMatchObject({ guard: 'suppressions' });
      expect(r!.message).toMatch(/Silencing a check hides the problem/);
    }
    expect(await verdict(g, 'src/a.ts', '// @ts-ignore\nconst a = 1;\n', 'const a = 1;\n')).toBeNull();
  });

  it('refuse any change to the files the checks read their rules from, and to package.json scripts', async () => {
    const g = guards({ configFiles: configFilesOf('npx tsc --noEmit -p tsconfig.build.json && eslint -c tools/lint.mjs src') });
    const ts = '{ "compilerOptions": { "strict": true } }\n';
    expect(await verdict(g, 'tsconfig.json', ts, ts.replace('true', 'false'))).toMatchObject({ guard: 'config' });
    const loosened = ts.replace('{ "strict": true }', '{ "strict": true, "skipLibCheck": true }');
    expect(await verdict(g, 'packages/web/tsconfig.json', ts, loosened)).toMatchObject({ guard: 'config' });
    expect(await verdict(g, '.eslintrc.json', '{}', '{ "rules": { "no-undef": "off" } }')).toMatchObject({ guard: 'config' });
    // A new nested lint config is a change too.
    expect(await verdict(g, 'src/.eslintrc.json', null, '{ "rules": { "no-undef": "off" } }')).toMatchObject({ guard: 'config' });
    // The files the verify commands name.
    expect(await verdict(g, 'tsconfig.build.json', ts, ts.replace('true', 'false'))).toMatchObject({ guard: 'config' });
    expect(await verdict(g, 'tools/lint.mjs', 'export default [];\n', 'export default [{ rules: {} }];\n')).toMatchObject({ guard: 'config' });
    const pkg = '{\n  "name": "x",\n  "dependencies": { "a": "1.0.0" },\n  "scripts": { "test": "vitest run" }\n}\n';
    expect(await verdict(g, 'package.json', pkg, pkg.replace('vitest run', 'echo ok'))).toMatchObject({ guard: 'config' });
    expect(await verdict(g, 'package.json', pkg, pkg.replace('1.0.0', '2.0.0'))).toBeNull();
    const py = '[project]\nname = "x"\n\n[tool.mypy]\nstrict = true\n';
    expect(await verdict(g, 'pyproject.toml', py, py.replace('strict = true', 'strict = false'))).toMatchObject({ guard: 'config' });
    expect(await verdict(g, 'pyproject.toml', py, py.replace('name = "x"', 'name = "y"'))).toBeNull();
  });

  it('are relaxed one by name, the others still holding', async () => {
    const g = guards({ suppressions: false, config: false });
    expect(await verdict(g, 'src/a.ts', 'const a = 1;\n', '// @ts-ignore\nconst a = 1;\n')).toBeNull();
    expect(await verdict(g, 'tsconfig.json', '{ "compilerOptions": { "strict": true } }', '{ "compilerOptions": { "strict": false } }')).toBeNull();
    expect(await verdict(g, 'a.test.ts', "it('x', () => {});\n", "it.skip('x', () => {});\n")).toMatchObject({ guard: 'skips' });
    // More test globs from the recipe.
    const more = guards({ tests: ['checks/**'] });
    expect(await verdict(more, 'checks/sum.ts', "it('x', () => {});\n", '')).toMatchObject({ guard: 'testFiles' });
    expect(await verdict(guards(), 'checks/sum.ts', "it('x', () => {});\n", '')).toBeNull();
  });
});
