// Recipe files are read once, exactly: bytes that are not UTF-8 are refused where they are (never
// decoded into U+FFFD and committed), a UTF-8 byte order mark is fine, and a YAML alias bomb is one
// clear problem. Through the CLI, judged by exit codes, file:line:col and what git holds afterwards.
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { reposAfterEach } from '../support/cleanups.js';
import { scion } from '../support/cli.js';
import { recipeFile } from '../support/recipe-file.js';

const repo = reposAfterEach();

/** A recipe file written byte for byte (recipeFile writes strings as UTF-8). */
function rawRecipe(bytes: Buffer, name = 'recipe.yaml'): string {
  const file = recipeFile('', name);
  writeFileSync(file, bytes);
  return file;
}

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

/** The problem lines printed for `file` (one per problem; its path is shown relative to the working folder). */
function problemLines(stderr: string, file: string): string[] {
  return stderr.split('\n').filter((l) => l.includes(`${basename(file)}:`) && /:\d+:\d+: /.test(l));
}

describe('a recipe that is not UTF-8', () => {
  it('is refused by validate and run (exit 2) at the line:col of its first invalid byte; nothing is written', async () => {
    // "café" saved as Latin-1: é is the single byte 0xE9, on line 3 after 'description: caf' (16 characters).
    const file = rawRecipe(latin1('name: cafe\n# notes\ndescription: caf\u00e9 au lait\nsteps:\n  - write: { file: b.txt, content: "caf\u00e9\\n" }\n'));
    const v = await scion(['validate', file], { cwd: tmpdir() });
    expect(v.code).toBe(2);
    const lines = problemLines(v.stderr, file);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/recipe\.yaml:3:17: .*not valid UTF-8 \(byte 0xE9 at line 3, column 17/);

    const r = await repo({ 'a.txt': 'a\n' });
    const run = await scion(['run', file, '--repo', r.dir], { cwd: r.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/recipe\.yaml:3:17: /);
    expect(r.git('for-each-ref', '--format=%(refname)', 'refs/heads/')).toBe('refs/heads/main');
  });

  it('counts columns in characters after valid multi-byte text, and refuses JSON recipes the same way', async () => {
    // Line 2 holds "ü" (2 bytes, 1 character, column 18) before a truncated 3-byte sequence.
    const head = Buffer.from('{"name": "j",\n "description": "\u00fc');
    const json = rawRecipe(Buffer.concat([head, Buffer.from([0xe2, 0x82]), Buffer.from('",\n "steps": [{"run": "true"}]}\n')]), 'r.json');
    const v = await scion(['validate', json], { cwd: tmpdir() });
    expect(v.code).toBe(2);
    expect(problemLines(v.stderr, json)).toEqual([expect.stringMatching(/:2:19: .*not valid UTF-8 \(byte 0xE2 at line 2, column 19/)]);
  });

  it('says so when the file is UTF-16', async () => {
    const text = 'name: wide\nsteps:\n  - run: "true"\n';
    const file = rawRecipe(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const v = await scion(['validate', file], { cwd: tmpdir() });
    expect(v.code).toBe(2);
    expect(problemLines(v.stderr, file)).toEqual([expect.stringMatching(/:1:1: .*UTF-16.*save it as UTF-8/)]);
  });

  it('refuses a module recipe and a JSON Schema file that are not UTF-8', async () => {
    const mod = rawRecipe(latin1('export default {\n  name: "m",\n  description: "na\u00efve",\n  steps: [{ run: "true" }],\n};\n'), 'r.mjs');
    const m = await scion(['validate', mod], { cwd: tmpdir() });
    expect(m.code).toBe(2);
    expect(problemLines(m.stderr, mod)).toEqual([expect.stringMatching(/:3:19: .*not valid UTF-8/)]);

    const rec = recipeFile('name: s\nschemas:\n  - files: ["*.json"]\n    schema: ./s.json\nsteps:\n  - run: "true"\n');
    writeFileSync(join(dirname(rec), 's.json'), latin1('{"description": "\u00e9", "type": "object"}\n'));
    const s = await scion(['validate', rec], { cwd: tmpdir() });
    expect(s.code).toBe(2);
    const where = /:4:13: schemas\[0\]\.schema: \.\/s\.json is not valid UTF-8 \(byte 0xE9 at line 1, column 18/;
    expect(problemLines(s.stderr, rec)).toEqual([expect.stringMatching(where)]);
  });

  it('loads a UTF-8 recipe with a byte order mark, and writes its text without the mark', async () => {
    const text = 'name: bom\nsteps:\n  - write: { file: b.txt, content: "caf\u00e9\\n" }\n';
    const file = rawRecipe(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    const v = await scion(['validate', file], { cwd: tmpdir() });
    expect(v.code).toBe(0);
    const r = await repo({ 'a.txt': 'a\n' });
    const run = await scion(['run', file, '--repo', r.dir], { cwd: r.dir });
    expect(run.code).toBe(0);
    expect(Buffer.from(r.git('cat-file', 'blob', 'scion/bom:b.txt'), 'utf8')).toEqual(Buffer.from('caf\u00e9', 'utf8'));
  });
});

describe('a YAML bomb', () => {
  it('is one problem that says what is wrong, for validate and run', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [i, c] of [...'bcdefghi'].entries()) levels.push(`${c}: &${c} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`);
    const file = recipeFile(`name: lol\n${levels.join('\n')}\nsteps:\n  - run: "true"\n`);
    for (const cmd of ['validate', 'run']) {
      const res = await scion([cmd, file], { cwd: tmpdir() });
      expect(res.code, cmd).toBe(2);
      expect(res.stderr).not.toMatch(/empty/);
      const lines = problemLines(res.stderr, file);
      expect(lines, res.stderr).toHaveLength(1);
      // Pointed at the first alias (line 3, after "b: &b ["), in words a user can act on.
      expect(lines[0]).toMatch(/:3:8: .*aliases.*expand to too much data/);
    }
  });

  it('nesting too deep for the reader is one problem too, without the half-read fields', async () => {
    const file = recipeFile(`name: deep\nx: ${'['.repeat(100_000)}${']'.repeat(100_000)}\nsteps:\n  - run: "true"\n`);
    const res = await scion(['validate', file], { cwd: tmpdir() });
    expect(res.code).toBe(2);
    expect(problemLines(res.stderr, file)).toEqual([expect.stringMatching(/:2:\d+: the recipe nests lists or mappings too deeply/)]);
  });
});
