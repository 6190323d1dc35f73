// The tool loop against the real engine: refusals that teach, and the model recovering from them.
import { describe, expect, it } from 'vitest';
import { runAgentStep } from '../../src/agent/index.js';
import { memFiles, step, testEnvsAfterEach } from './mem-files.js';
import { done, firstMessageText, scripted, tool, type ToolResult, toolResults } from './script.js';
import { fakeApisAfterEach } from '../support/servers.js';

const fakeApi = fakeApisAfterEach();
const testEnv = testEnvsAfterEach();

const SRC = [
  'import fs from "fs";',
  '',
  'function load(name) {',
  '  return fs.readFileSync(name, "utf8");',
  '}',
  '',
  'export function foo() {',
  '  return load("a") + load("b");',
  '}',
  '',
].join('\n');

describe('per: file edits', () => {
  it('answers a hallucinated old_string with an error showing the closest lines, then applies the corrected edit', async () => {
    const seen: ToolResult[] = [];
    const api = await fakeApi(
      scripted({
        'src/a.js': [
          [tool('edit_file', { file_path: 'src/a.js', old_string: 'function loadFile(name) {', new_string: 'async function load(name) {' })],
          (body) => {
            seen.push(...toolResults(body));
            return [tool('edit_file', { file_path: 'src/a.js', old_string: 'function load(name) {', new_string: 'async function load(name) {' })];
          },
          (body) => {
            seen.push(...toolResults(body));
            return done();
          },
        ],
      }),
    );
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': SRC });
    const out = await runAgentStep(step(), files, env);

    expect(out.errors).toEqual([]);
    expect(files.text('src/a.js')).toBe(SRC.replace('function load(name) {', 'async function load(name) {'));
    expect(seen[0]!.is_error).toBe(true);
    expect(seen[0]!.content).toContain('not-found');
    // The closest line, with its line number in cat -n form.
    expect(seen[0]!.content).toContain('     3\tfunction load(name) {');
    expect(seen[1]!.is_error).toBeUndefined();
    expect(seen[1]!.content).toContain('has been updated');
    expect(seen[1]!.content).toContain('     3\tasync function load(name) {');
    expect(env.logs.some((l) => l.includes('refused edit_file on src/a.js (not-found 8)'))).toBe(true);
  });

  it('gives the first message the file in cat -n form and counts it as read', async () => {
    const api = await fakeApi(scripted({ 'src/a.js': [[tool('edit_file', { file_path: 'src/a.js', old_string: 'foo()', new_string: 'bar()' })], done()] }));
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': SRC });
    const out = await runAgentStep(step(), files, env);
    expect(out.errors).toEqual([]);
    const first = firstMessageText(api.messages()[0]!.body);
    expect(first).toContain('Rename foo to bar');
    expect(first).toContain('     7\texport function foo() {');
    expect(files.text('src/a.js')).toContain('export function bar() {');
  });

  it('answers a non-unique old_string with the count and line numbers; replace_all then changes every match', async () => {
    const seen: ToolResult[] = [];
    const api = await fakeApi(
      scripted({
        'src/a.js': [
          [tool('edit_file', { file_path: 'src/a.js', old_string: 'load(', new_string: 'read(' })],
          (body) => {
            seen.push(...toolResults(body));
            return [tool('edit_file', { file_path: 'src/a.js', old_string: 'load(', new_string: 'read(', replace_all: true })];
          },
          done(),
        ],
      }),
    );
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': SRC });
    const out = await runAgentStep(step(), files, env);
    expect(out.errors).toEqual([]);
    expect(seen[0]!.is_error).toBe(true);
    expect(seen[0]!.content).toContain('Found 3 matches');
    expect(seen[0]!.content).toContain('on lines 3, 8 (2 times):\n     3\tfunction load(name) {\n     8\t  return load("a") + load("b");');
    expect(files.text('src/a.js')).toBe(SRC.replaceAll('load(', 'read('));
  });

  it('says so when old_string carries read_file line-number prefixes', async () => {
    const seen: ToolResult[] = [];
    const api = await fakeApi(
      scripted({
        'src/a.js': [
          [tool('edit_file', { file_path: 'src/a.js', old_string: '     7\texport function foo() {', new_string: 'export function bar() {' })],
          (body) => {
            seen.push(...toolResults(body));
            return done();
          },
        ],
      }),
    );
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': SRC });
    await runAgentStep(step(), files, env);
    expect(seen[0]!.is_error).toBe(true);
    expect(seen[0]!.content).toContain('line-number prefixes');
    expect(files.text('src/a.js')).toBe(SRC);
  });

  it('refuses write_file over an existing file the conversation has not read, and allows creating a new one', async () => {
    const seen: ToolResult[] = [];
    const api = await fakeApi(
      scripted({
        'src/a.js': [
          [tool('write_file', { file_path: 'src/b.js', content: 'overwritten\n' }), tool('write_file', { file_path: 'src/new.js', content: 'export {};\n' })],
          (body) => {
            seen.push(...toolResults(body));
            return done();
          },
        ],
        'src/b.js': [done('Nothing to rename here.')],
      }),
    );
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': SRC, 'src/b.js': 'original\n' });
    const out = await runAgentStep(step(), files, env);
    expect(out.errors).toEqual([]);
    expect(seen[0]!.is_error).toBe(true);
    expect(seen[0]!.content).toContain('not-read, code 6');
    expect(seen[0]!.content).toContain('read_file');
    expect(seen[1]!.is_error).toBeUndefined();
    expect(files.text('src/b.js')).toBe('original\n');
    expect(files.text('src/new.js')).toBe('export {};\n');
  });

  it('accepts an absolute path inside the worktree root', async () => {
    const api = await fakeApi(
      scripted({ 'src/a.js': [[tool('edit_file', { file_path: '/tmp/wt/src/a.js', old_string: 'foo()', new_string: 'bar()' })], done()] }),
    );
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': SRC }, { root: '/tmp/wt' });
    const out = await runAgentStep(step(), files, env);
    expect(out.errors).toEqual([]);
    expect(files.text('src/a.js')).toContain('function bar()');
  });
});

describe('notebooks', () => {
  it('refuses edit_file on a notebook with advice, and edits a cell with notebook_edit', async () => {
    const seen: ToolResult[] = [];
    const nb =
      JSON.stringify(
        {
          cells: [
            {
              cell_type: 'code',
              id: 'c1',
              metadata: {},
              source: ['print(foo)'],
              outputs: [{ output_type: 'stream', name: 'stdout', text: ['1'] }],
              execution_count: 1,
            },
            { cell_type: 'markdown', id: 'm1', metadata: {}, source: ['# foo'] },
          ],
          metadata: {},
          nbformat: 4,
          nbformat_minor: 5,
        },
        null,
        1,
      ) + '\n';
    const api = await fakeApi(
      scripted({
        'nb/a.ipynb': [
          [tool('edit_file', { file_path: 'nb/a.ipynb', old_string: 'print(foo)', new_string: 'print(bar)' })],
          (body) => {
            seen.push(...toolResults(body));
            return [tool('notebook_edit', { notebook_path: 'nb/a.ipynb', cell_id: 'c1', new_source: 'print(bar)' })];
          },
          (body) => {
            seen.push(...toolResults(body));
            return done();
          },
        ],
      }),
    );
    const env = await testEnv(api.url);
    const files = memFiles({ 'nb/a.ipynb': nb });
    const out = await runAgentStep(step(), files, env);
    expect(out.errors).toEqual([]);
    expect(seen[0]!.is_error).toBe(true);
    expect(seen[0]!.content).toContain('Use notebook_edit');
    expect(seen[1]!.is_error).toBeUndefined();
    const cells = JSON.parse(files.text('nb/a.ipynb')!).cells;
    expect([].concat(cells[0].source).join('')).toBe('print(bar)');
    expect(cells[0].outputs).toEqual([]);
    expect(cells[0].execution_count).toBeNull();
    expect([].concat(cells[1].source).join('')).toBe('# foo');
  });
});

describe('per: job read-before-edit', () => {
  it('refuses an edit of an unread file (not-read) and of a file changed since it was read (stale)', async () => {
    const seen: ToolResult[][] = [];
    const files = memFiles({ 'src/a.js': 'const a = foo;\n', 'src/b.js': 'const b = foo;\n' });
    const api = await fakeApi(
      scripted({
        job: [
          [tool('grep', { pattern: 'foo' }), tool('edit_file', { file_path: 'src/a.js', old_string: 'foo', new_string: 'bar' })],
          (body) => {
            seen.push(toolResults(body));
            return [tool('read_file', { file_path: 'src/a.js' })];
          },
          (body) => {
            seen.push(toolResults(body));
            // Someone else (an earlier step, another conversation) changes the file after the read.
            files.map.set('src/a.js', Buffer.from('const a = foo; // touched\n'));
            return [tool('edit_file', { file_path: 'src/a.js', old_string: 'foo', new_string: 'bar' })];
          },
          (body) => {
            seen.push(toolResults(body));
            return [tool('read_file', { file_path: 'src/a.js' }), tool('edit_file', { file_path: 'src/a.js', old_string: 'foo', new_string: 'bar' })];
          },
          (body) => {
            seen.push(toolResults(body));
            return done();
          },
        ],
      }),
    );
    const env = await testEnv(api.url);
    const out = await runAgentStep(step({ per: 'job' }), files, env);
    expect(out.errors).toEqual([]);
    const [grepResult, unread] = seen[0]!;
    expect(grepResult!.content).toBe('src/a.js:1: const a = foo;\nsrc/b.js:1: const b = foo;');
    expect(unread!.is_error).toBe(true);
    expect(unread!.content).toContain('not-read, code 6');
    expect(seen[1]![0]!.content).toBe('     1\tconst a = foo;');
    expect(seen[2]![0]!.is_error).toBe(true);
    expect(seen[2]![0]!.content).toContain('stale, code 7');
    expect(seen[3]![1]!.is_error).toBeUndefined();
    expect(files.text('src/a.js')).toBe('const a = bar; // touched\n');
    expect(files.text('src/b.js')).toBe('const b = foo;\n');
  });

  it('lists files with glob, shows a partial read with a note, and lets a partial read edit but not overwrite', async () => {
    const seen: ToolResult[][] = [];
    const long = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const files = memFiles({ 'src/a.js': long, 'lib/x.txt': 'x\n' });
    const api = await fakeApi(
      scripted({
        job: [
          [tool('glob', { pattern: 'src/**/*.js' }), tool('read_file', { file_path: 'src/a.js', offset: 3, limit: 2 })],
          (body) => {
            seen.push(toolResults(body));
            return [
              tool('write_file', { file_path: 'src/a.js', content: 'gone\n' }),
              tool('edit_file', { file_path: 'src/a.js', old_string: 'line 4\n', new_string: 'line four\n' }),
            ];
          },
          (body) => {
            seen.push(toolResults(body));
            return done();
          },
        ],
      }),
    );
    const env = await testEnv(api.url);
    const out = await runAgentStep(step({ per: 'job' }), files, env);
    expect(out.errors).toEqual([]);
    expect(seen[0]![0]!.content).toBe('src/a.js');
    expect(seen[0]![1]!.content).toBe('     3\tline 3\n     4\tline 4\n[Showing lines 3-4 of 10. Call read_file with offset 5 to read more.]');
    expect(seen[1]![0]!.is_error).toBe(true);
    expect(seen[1]![0]!.content).toContain('only read in part');
    expect(seen[1]![1]!.is_error).toBeUndefined();
    expect(files.text('src/a.js')).toBe(long.replace('line 4\n', 'line four\n'));
  });
});
