// The `jscodeshift` step through the CLI: a real transform (react-codemod's rename-unsafe-lifecycles,
// see fixtures/jscodeshift/LICENSE) gives on the branch what `jscodeshift -t` writes, with the
// file's own line endings and BOM kept; a throw fails that file with kind `transform`, naming it; a
// transform that never returns is stopped at the step's timeout, and nothing the step did is kept.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './oracle.js';
import { bom, showBytes, structuralCli } from './cli-support.js';

const { run, cleanups } = structuralCli();

const FIXTURES = join(ROOT, 'test', 'structural', 'fixtures', 'jscodeshift');
const JSCODESHIFT = join(ROOT, 'node_modules', '.bin', 'jscodeshift');
const INPUTS = ['arrow-functions', 'create-react-class', 'instance-methods'].map((n) =>
  readFileSync(join(FIXTURES, 'inputs', 'rename-unsafe-lifecycles', `${n}.input.js`), 'utf8'),
);

/** The fixture transforms, to sit beside the recipe under transforms/. */
function transforms(): Record<string, string> {
  const dir = join(FIXTURES, 'transforms');
  return Object.fromEntries(readdirSync(dir).map((f) => [`transforms/${f}`, readFileSync(join(dir, f), 'utf8')]));
}

/** What `jscodeshift -t <transform>` writes for each input, on copies in a temp folder. */
function cliOutputs(inputs: readonly string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'scion-jscs-cli-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(FIXTURES, 'transforms'), join(dir, 'transforms'), { recursive: true });
  const files = inputs.map((text, i) => {
    const f = join(dir, `in-${i}.js`);
    writeFileSync(f, text);
    return f;
  });
  execFileSync(JSCODESHIFT, ['-t', join(dir, 'transforms', 'rename-unsafe-lifecycles.js'), '--run-in-band', ...files], { cwd: dir, stdio: 'pipe' });
  return files.map((f) => readFileSync(f, 'utf8'));
}

const RECIPE = 'name: lifecycles\nsteps:\n  - jscodeshift: { transform: ./transforms/rename-unsafe-lifecycles.js }\n';

describe('jscodeshift through a recipe', () => {
  it('writes what the jscodeshift CLI writes, keeping CRLF and the BOM where the file had them', async () => {
    const expected = cliOutputs(INPUTS);
    expect(expected.filter((e, i) => e !== INPUTS[i]).length).toBeGreaterThan(1);
    const files: Record<string, string | Uint8Array> = Object.fromEntries(INPUTS.map((t, i) => [`src/c${i}.js`, t]));
    files['src/crlf.js'] = (INPUTS[2] as string).replaceAll('\n', '\r\n');
    files['src/bom.js'] = bom(INPUTS[2] as string);
    files['src/types.ts'] = 'componentWillMount();\n'; // the babel parser reads .js files only
    const { code, job, r } = await run(files, RECIPE, transforms());
    expect(code).toBe(0);
    INPUTS.forEach((_, i) => expect(showBytes(r, 'scion/lifecycles', `src/c${i}.js`).toString()).toBe(expected[i]));
    expect(showBytes(r, 'scion/lifecycles', 'src/crlf.js').toString()).toBe((expected[2] as string).replaceAll('\n', '\r\n'));
    expect(showBytes(r, 'scion/lifecycles', 'src/bom.js')).toEqual(Buffer.from(bom(expected[2] as string)));
    expect(job.files.map((f) => f.path)).not.toContain('src/types.ts');
    r.git('fsck', '--strict');
  });

  it('a throw fails that file with kind transform, naming it; the other files go on with onError: continue', async () => {
    const t =
      "module.exports = (file) => { if (file.path.endsWith('b.js')) throw new Error('cannot read ' + file.path); " + "return file.source + '// seen\\n'; };\n";
    const { code, job, r } = await run(
      { 'a.js': 'a();\n', 'b.js': 'b();\n' },
      'name: throws\nonError: continue\nsteps:\n  - jscodeshift: { transform: ./t.cjs }\n',
      { 't.cjs': t },
    );
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.step, e.file, e.kind])).toEqual([[0, 'b.js', 'transform']]);
    expect(job.errors[0]!.message).toContain('threw on b.js: cannot read b.js');
    expect(showBytes(r, 'scion/throws', 'a.js').toString()).toBe('a();\n// seen\n');
  });

  it('a transform that never returns ends in timeout at the step limit; nothing the step did is kept', async () => {
    const t = "module.exports = (file) => { if (file.path === 'z.js') for (;;) {} return file.source + '// seen\\n'; };\n";
    const { code, job, r } = await run(
      { 'a.js': 'a();\n', 'z.js': 'z();\n', 'keep.txt': 'old\n' },
      ['name: loops', 'steps:', '  - replace: { old_string: old, new_string: new }', '  - jscodeshift: { transform: ./t.cjs }', '    timeout: 3', ''].join(
        '\n',
      ),
      { 't.cjs': t },
    );
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.step, e.kind])).toEqual([[1, 'timeout']]);
    // The first step's change is committed; the stopped step's change to a.js is not.
    expect(r.git('diff', '--name-only', 'main', 'scion/loops')).toBe('keep.txt');
  });
});
