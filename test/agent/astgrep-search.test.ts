// The agent's astgrep_search tool: code found by its shape (a call split over lines, whatever its
// spacing) in the step's own files only, answered as path:line:column; a language it does not read
// or a pattern ast-grep cannot use is a refusal the model can act on, and the search ends at its
// deadline. Through a conversation (the real SDK against the fake Messages API), the model finds
// the calls, then edits them with the usual tools.
import { afterEach, describe, expect, it } from 'vitest';
import { runAgentStep } from '../../src/agent/index.js';
import { Guards } from '../../src/agent/guards/index.js';
import { Mutex } from '../../src/agent/mutex.js';
import { ReadStates } from '../../src/agent/read-state.js';
import { astgrepSearch } from '../../src/agent/tools/astgrep-search.js';
import { toolDefinitions } from '../../src/agent/tools/schemas.js';
import type { Failure } from '../../src/errors.js';
import { fakeApi, type FakeApi } from './fake-api.js';
import { memFiles, step, testEnv, type TestEnv } from './mem-files.js';
import { done, scripted, tool, toolResults, type ToolResult } from './script.js';

let api: FakeApi | undefined;
let env: TestEnv | undefined;
afterEach(async () => {
  await api?.close();
  await env?.cleanup();
  api = env = undefined;
});

const FILES = {
  'src/a.ts': 'const x = 1;\nconsole.log(\n  x,\n  "two");\n',
  'src/b.js': 'function f() { console . log ( 1 ) }\n// console.log(commented)\n',
  'src/c.py': 'console.log(1)\n',
  'vendor/v.js': 'console.log(3);\n',
};

function context(files = memFiles(FILES, { deny: ['vendor/**'] })) {
  const refused: Failure[] = [];
  return {
    refused,
    ctx: {
      files,
      reads: new ReadStates(),
      lock: new Mutex(),
      touched: new Map<string, string | null>(),
      refused: (_tool: string, _path: string | null, f: Failure) => refused.push(f),
      guards: new Guards(undefined, () => {}),
      guardRefusals: [],
    },
  };
}

describe('astgrep_search', () => {
  it('is offered to the model with its pattern, language and glob', () => {
    const def = toolDefinitions().find((t) => t.name === 'astgrep_search');
    expect(Object.keys((def?.input_schema as { properties: object }).properties)).toEqual(['pattern', 'language', 'glob']);
  });

  it("finds calls by shape, in the language asked for, in the step's files only (never a denied one)", async () => {
    const { ctx } = context();
    const js = await astgrepSearch(ctx, { pattern: 'console.log($$$A)', language: 'javascript' });
    expect(js).toEqual({ content: 'src/b.js:1:16: console . log ( 1 )', isError: false });
    const ts = await astgrepSearch(ctx, { pattern: 'console.log($$$A)', language: 'ts' });
    expect(ts).toEqual({ content: 'src/a.ts:2:1: console.log(', isError: false });
    const narrowed = await astgrepSearch(ctx, { pattern: 'console.log($$$A)', language: 'javascript', glob: 'lib/**' });
    expect(narrowed.content).toBe('No javascript file of this job matches lib/** (.js .mjs .cjs .jsx).');
    const none = await astgrepSearch(ctx, { pattern: 'console.error($$$A)', language: 'javascript' });
    expect(none.content).toBe('No javascript code matches console.error($$$A).');
  });

  it('refuses a language it does not read, and a pattern ast-grep cannot use, saying what to do', async () => {
    const { ctx, refused } = context();
    const py = await astgrepSearch(ctx, { pattern: 'print($A)', language: 'python' });
    expect(py.isError).toBe(true);
    expect(py.content).toContain('Error (unsupported): astgrep_search does not read python.');
    expect(py.content).toContain('typescript, tsx, javascript, html, css');
    const bare = await astgrepSearch(ctx, { pattern: '$$$', language: 'javascript' });
    expect(bare.isError).toBe(true);
    expect(bare.content).toContain('ast-grep cannot use the pattern "$$$" as javascript');
    expect(bare.content).toContain('$$$NAME for several');
    expect(refused.map((f) => f.kind)).toEqual(['unsupported', 'unsupported']);
  });

  it('ends at its deadline with a timeout refusal', async () => {
    const { ctx, refused } = context(memFiles({ 'big.js': 'var a=1;'.repeat(200_000) }));
    const out = await astgrepSearch(ctx, { pattern: '$A = $B', language: 'javascript' }, 1);
    expect(out.isError).toBe(true);
    expect(out.content).toContain('Error (timeout)');
    expect(refused.map((f) => f.kind)).toEqual(['timeout']);
  });

  it('in a conversation: the model searches by shape, then edits what it found', async () => {
    const seen: ToolResult[] = [];
    const files = memFiles({ 'src/a.ts': FILES['src/a.ts'], 'src/b.ts': 'log(1);\n' });
    api = await fakeApi(
      scripted({
        job: [
          [tool('astgrep_search', { pattern: 'console.log($$$A)', language: 'typescript' })],
          (body) => {
            seen.push(...toolResults(body));
            return [tool('read_file', { file_path: 'src/a.ts' })];
          },
          [tool('edit_file', { file_path: 'src/a.ts', old_string: 'console.log(\n', new_string: 'logger.info(\n' })],
          done(),
        ],
      }),
    );
    env = await testEnv(api.url);
    const out = await runAgentStep(step({ per: 'job' }), files, env);
    expect(out.errors).toEqual([]);
    expect(seen[0]!.content).toBe('src/a.ts:2:1: console.log(');
    expect(files.text('src/a.ts')).toBe(FILES['src/a.ts'].replace('console.log(', 'logger.info('));
    expect(files.text('src/b.ts')).toBe('log(1);\n');
  });
});
