// The jscodeshift engine runs real transforms (copied from reactjs/react-codemod with their fixture
// inputs, MIT, see fixtures/jscodeshift/LICENSE) in process, and writes exactly what the jscodeshift
// CLI of the same version writes; and keeps the file's BOM and line endings, which the CLI does not.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTransform, runTransformOn, type LoadedTransform, type ParserName } from '../../src/structural/jscodeshift.js';
import { fromUtf8, ROOT, utf8 } from './oracle.js';

const FIXTURES = join(ROOT, 'test', 'structural', 'fixtures', 'jscodeshift');
const JSCODESHIFT = join(ROOT, 'node_modules', '.bin', 'jscodeshift');

// Parsers as the fixtures need them with jscodeshift 17 (the flow parser no longer reads class fields).
const SUITES: readonly { transform: string; parser?: ParserName; inputs: readonly string[] }[] = [
  {
    transform: 'rename-unsafe-lifecycles.js',
    inputs: ['rename-unsafe-lifecycles/arrow-functions', 'rename-unsafe-lifecycles/create-react-class', 'rename-unsafe-lifecycles/instance-methods'],
  },
  { transform: 'rename-unsafe-lifecycles.js', parser: 'flow', inputs: ['rename-unsafe-lifecycles/create-react-class'] },
  {
    transform: 'React-PropTypes-to-prop-types.js',
    inputs: ['default-import', 'require', 'with-top-comment', 'import-alias'].map((f) => `React-PropTypes-to-prop-types/${f}`),
  },
  { transform: 'React-PropTypes-to-prop-types.js', parser: 'flow', inputs: ['React-PropTypes-to-prop-types/with-top-comment'] },
  { transform: 'remove-forward-ref.ts', inputs: ['remove-forward-ref/function-expression', 'remove-forward-ref/arrow-function-expression'] },
  { transform: 'remove-forward-ref.ts', parser: 'tsx', inputs: ['remove-forward-ref/typescript/props-type-literal'] },
  { transform: 'replace-string-ref.ts', parser: 'tsx', inputs: ['replace-string-ref/class-component-default-import', 'replace-string-ref/function-component'] },
];

const temp: string[] = [];
afterAll(() => {
  for (const d of temp) rmSync(d, { recursive: true, force: true });
});

/** `jscodeshift -t <transform> [--parser p] <files>` on copies of the inputs; their content afterwards, and its summary. */
function cliRun(transform: string, parser: ParserName | undefined, inputs: readonly string[]): { files: Map<string, string>; summary: string } {
  const dir = mkdtempSync(join(tmpdir(), 'scion-jscs-'));
  temp.push(dir);
  cpSync(join(FIXTURES, 'transforms'), join(dir, 'transforms'), { recursive: true });
  const files = inputs.map((name, i) => {
    const file = join(dir, `input-${i}.js`);
    const text = readFileSync(join(FIXTURES, 'inputs', `${name}.input.js`), 'utf8');
    writeFileSync(file, text);
    return file;
  });
  const summary = execFileSync(JSCODESHIFT, ['-t', join(dir, 'transforms', transform), ...(parser ? [`--parser=${parser}`] : []), '--run-in-band', ...files], {
    cwd: dir,
    encoding: 'utf8',
    stdio: 'pipe',
  });
  return { files: new Map(inputs.map((name, i) => [name, readFileSync(files[i] as string, 'utf8')])), summary };
}

const cli = (transform: string, parser: ParserName | undefined, inputs: readonly string[]): Map<string, string> => {
  const r = cliRun(transform, parser, inputs);
  expect(r.summary).toMatch(/\b0 errors/);
  return r.files;
};

async function load(name: string): Promise<LoadedTransform> {
  const l = await loadTransform(`./transforms/${name}`, FIXTURES);
  if (!l.ok) throw new Error(l.error);
  return l.value;
}

async function ours(t: LoadedTransform, input: string, bytes: Uint8Array, parser?: ParserName): Promise<string> {
  const r = await runTransformOn(t, { path: `${input}.js`, bytes }, parser ? { parser } : {});
  if (!r.ok) throw new Error(`${r.error.kind}: ${r.error.message}`);
  return r.value.status === 'changed' ? fromUtf8(r.value.after) : fromUtf8(bytes);
}

describe('jscodeshift transforms run in process equal the jscodeshift CLI', () => {
  for (const suite of SUITES) {
    it(`${suite.transform}${suite.parser ? ` (parser ${suite.parser})` : ''} on ${suite.inputs.length} fixtures`, async () => {
      const expected = cli(suite.transform, suite.parser, suite.inputs);
      const t = await load(suite.transform);
      let changed = 0;
      for (const input of suite.inputs) {
        const source = readFileSync(join(FIXTURES, 'inputs', `${input}.input.js`), 'utf8');
        const out = await ours(t, input, utf8(source), suite.parser);
        expect(out, input).toBe(expected.get(input));
        if (out !== source) changed++;
      }
      expect(changed).toBeGreaterThan(0);
    });
  }

  it('keeps CRLF line endings and the BOM, which the CLI would not (otherwise the same result)', async () => {
    const input = 'rename-unsafe-lifecycles/instance-methods';
    const lf = readFileSync(join(FIXTURES, 'inputs', `${input}.input.js`), 'utf8');
    const expectedLf = cli('rename-unsafe-lifecycles.js', undefined, [input]).get(input) as string;
    expect(expectedLf).not.toBe(lf);
    const crlfBom = utf8(`\uFEFF${lf.replaceAll('\n', '\r\n')}`);
    const out = await ours(await load('rename-unsafe-lifecycles.js'), input, crlfBom);
    expect(out).toBe(`\uFEFF${expectedLf.replaceAll('\n', '\r\n')}`);
  });

  it('where the CLI reports an error for a file, the step fails that file with kind `transform`', async () => {
    const input = 'rename-unsafe-lifecycles/arrow-functions';
    const r = cliRun('rename-unsafe-lifecycles.js', 'flow', [input]);
    expect(r.summary).toMatch(/\b1 errors/);
    const source = readFileSync(join(FIXTURES, 'inputs', `${input}.input.js`));
    const ourRun = await runTransformOn(await load('rename-unsafe-lifecycles.js'), { path: 'a.js', bytes: source }, { parser: 'flow' });
    expect(!ourRun.ok && ourRun.error.kind).toBe('transform');
    expect(r.files.get(input)).toBe(fromUtf8(source));
  });
});

describe('jscodeshift step semantics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scion-jscs-own-'));
  temp.push(dir);
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  write('package.json', '{ "type": "module" }');
  write('throws.js', "export default function (file) { throw new Error('cannot handle ' + file.path); }");
  write('nothing.js', 'export default function () { return undefined; }');
  write('number.js', 'export default function () { return 42; }');
  write('no-default.js', 'export const parser = "tsx";');
  write('cjs.js', "module.exports = function (file) { return file.source.replace('a', 'b'); };");
  write(
    'with-parser.js',
    [
      "export const parser = 'tsx';",
      'export default function (file, api, options) {',
      "  api.report('parser option: ' + options.parser);",
      '  api.jscodeshift(file.source);',
      "  return file.source + '// ok\\n';",
      '}',
    ].join('\n'),
  );

  const file = (text: string) => ({ path: 'src/a.tsx', bytes: utf8(text) });

  it('a throw is a `transform` failure naming the file and the message', async () => {
    const l = await loadTransform('./throws.js', dir);
    if (!l.ok) throw new Error(l.error);
    const r = await runTransformOn(l.value, file('x'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('transform');
    expect(r.error.data).toEqual({ path: 'src/a.tsx', transform: './throws.js' });
    expect(r.error.message).toContain('src/a.tsx');
    expect(r.error.message).toContain('cannot handle src/a.tsx');
  });

  it('undefined leaves the file alone; a number is a `transform` failure', async () => {
    const nothing = await loadTransform('./nothing.js', dir);
    const number = await loadTransform('./number.js', dir);
    if (!nothing.ok || !number.ok) throw new Error('load failed');
    const a = await runTransformOn(nothing.value, file('x'));
    expect(a.ok && a.value.status).toBe('unchanged');
    const b = await runTransformOn(number.value, file('x'));
    expect(!b.ok && b.error.kind).toBe('transform');
  });

  it("uses the module's parser export unless the step names one; report() is collected", async () => {
    const l = await loadTransform('./with-parser.js', dir);
    if (!l.ok) throw new Error(l.error);
    expect(l.value.parser).toBe('tsx');
    // TSX syntax: only the tsx parser reads it (babel would throw on the type annotation).
    const src = 'const x = <div>{(y as number)}</div>;\n';
    const r = await runTransformOn(l.value, file(src));
    expect(r.ok && r.value.status).toBe('changed');
    expect(r.ok && r.value.reports).toEqual(['parser option: babel']);
    const withBabel = await runTransformOn(l.value, file(src), { parser: 'babel' });
    expect(!withBabel.ok && withBabel.error.kind).toBe('transform');
  });

  it('a CommonJS transform inside a "type": "module" package loads, as jscodeshift loads it', async () => {
    const l = await loadTransform('./cjs.js', dir);
    if (!l.ok) throw new Error(l.error);
    const r = await runTransformOn(l.value, file('a;\n'));
    expect(r.ok && r.value.status === 'changed' && r.value.newText).toBe('b;\n');
  });

  it('a missing module or one without a default export cannot be loaded, with a message saying which', async () => {
    const missing = await loadTransform('./nope.js', dir);
    expect(!missing.ok && missing.error).toContain('./nope.js does not exist');
    const noDefault = await loadTransform('./no-default.js', dir);
    expect(!noDefault.ok && noDefault.error).toContain('has no default export');
    const pkg = await loadTransform('no-such-codemod-package/transform', dir);
    expect(!pkg.ok && pkg.error).toContain('is not an installed package');
  });

  it('a binary file is refused by the text layer before the transform sees it', async () => {
    const l = await loadTransform('./nothing.js', dir);
    if (!l.ok) throw new Error(l.error);
    const r = await runTransformOn(l.value, { path: 'x.js', bytes: new Uint8Array([0x61, 0, 0x62]) });
    expect(!r.ok && r.error.kind).toBe('binary');
  });
});
