// The structural steps under the same rules as every edit: `deny` and secrets refuse the file (kind
// `denied`, `secret`) through both steps, and a rule that would run for hours on a 5 MB minified file
// ends in `timeout` at the step's limit, keeping nothing the step did.
import { describe, expect, it } from 'vitest';
import { showBytes, structuralCli } from './cli-support.js';

const { run } = structuralCli();

const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}x9Y8z7`;

describe('deny and secrets', () => {
  it('astgrep: a denied file fails with kind denied, a fix that would write a credential with kind secret; the rest is written', async () => {
    const { code, job, r } = await run(
      { 'src/a.js': 'console.log(1);\n', 'vendor/v.js': 'console.log(2);\n', 'src/token.js': 'const t = readToken();\n' },
      [
        'name: refusals',
        'deny: ["vendor/**"]',
        'onError: continue',
        'steps:',
        '  - astgrep: { rule: { pattern: "console.log($$$A)" }, fix: "logger.info($$$A)" }',
        `  - astgrep: { rule: { pattern: "readToken()" }, fix: "'${TOKEN}'" }`,
        '',
      ].join('\n'),
    );
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.step, e.file, e.kind, e.code])).toEqual([
      [0, 'vendor/v.js', 'denied', 2],
      [1, 'src/token.js', 'secret', 0],
    ]);
    expect(job.errors[1]!.message).not.toContain(TOKEN);
    expect(r.git('diff', '--name-only', 'main', 'scion/refusals')).toBe('src/a.js');
    expect(showBytes(r, 'scion/refusals', 'vendor/v.js').toString()).toBe('console.log(2);\n');
    r.git('fsck', '--strict');
  });

  it('jscodeshift: the same refusals for what a transform returns', async () => {
    const t = [
      'module.exports = (file) =>',
      `  file.path === 'src/token.js' ? file.source.replace('readToken()', "'${TOKEN}'") : file.source.replace('old', 'fresh');`,
      '',
    ].join('\n');
    const { code, job, r } = await run(
      { 'src/a.js': 'old();\n', 'vendor/v.js': 'old();\n', 'src/token.js': 'const t = readToken();\n' },
      'name: refusals\ndeny: ["vendor/**"]\nonError: continue\nsteps:\n  - jscodeshift: { transform: ./t.cjs }\n',
      { 't.cjs': t },
    );
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.file, e.kind])).toEqual([
      ['src/token.js', 'secret'],
      ['vendor/v.js', 'denied'],
    ]);
    expect(r.git('diff', '--name-only', 'main', 'scion/refusals')).toBe('src/a.js');
  });
});

/** A minified bundle of about `size` characters on one line. */
function minified(size: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < size; i++) {
    const s = `var a${i}=function(b,c){return ${i % 100 === 0 ? `console.log(b,"${i}"),` : ''}b*c+${i}};`;
    parts.push(s);
    n += s.length;
  }
  return parts.join('');
}

describe('bounded time', () => {
  it('a rule that would run for hours on a 5 MB minified file ends in timeout at the step limit; nothing of the step is kept', async () => {
    const { code, job, r } = await run(
      { 'dist/bundle.min.js': minified(5_000_000), 'src/a.js': 'a();\n', 'notes.txt': 'old\n' },
      [
        'name: slow',
        'steps:',
        '  - replace: { old_string: old, new_string: new }',
        '  - astgrep:',
        // Every identifier looks at all the identifiers before it: quadratic on one line.
        '      rule: { kind: identifier, follows: { kind: identifier, regex: "^zz$", stopBy: end } }',
        '      fix: x',
        '    timeout: 3',
        '  - astgrep: { rule: { pattern: "a()" }, fix: "b()" }',
        '',
      ].join('\n'),
    );
    expect(code).toBe(1);
    expect(job.errors.map((e) => [e.step, e.kind])).toEqual([[1, 'timeout']]);
    // The step before is committed; the stopped step and the ones after it are not.
    expect(r.git('diff', '--name-only', 'main', 'scion/slow')).toBe('notes.txt');
    r.git('fsck', '--strict');
  });
});
