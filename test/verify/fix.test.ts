// The fix conversation against the fake Messages API, through the real SDK: the first request carries
// the failing command and each diagnostic with its lines; those lines count as read, so the model's
// first call can be an edit; a rerun over the same files replays the answer with no request.
import { describe, expect, it } from 'vitest';
import { runFix, type FailedCommand } from '../../src/agent/fix.js';
import type { Diagnostic } from '../../src/model/diagnostic.js';
import { KEY, memFiles, testEnvsAfterEach } from '../agent/mem-files.js';
import { done, firstMessageText, message, tool, toolResults, turnOf } from '../agent/script.js';
import type { MessagesBody } from '../agent/fake-api.js';
import { fakeApisAfterEach } from '../support/servers.js';

const fakeApi = fakeApisAfterEach();
const testEnv = testEnvsAfterEach();

const B = [
  'import { rename } from "./a.js";',
  '',
  'export function one(): string {',
  '  return rename(1);',
  '}',
  '',
  'export function two(): string {',
  '  return rename(2);',
  '}',
  ...Array.from({ length: 30 }, (_, i) => `// filler ${i}`),
  'export const last = rename(3);',
  '',
].join('\n');

const diag = (line: number, col: number): Diagnostic => ({
  file: 'src/b.ts',
  line,
  col,
  severity: 'error',
  message: "Cannot find name 'rename'. Did you mean 'renamed'?",
  source: 'tsc',
  code: 'TS2552',
});

const FAILED: FailedCommand = {
  command: 'npx tsc --noEmit -p .',
  status: 2,
  diagnostics: [diag(4, 10), diag(8, 10), diag(40, 21), { ...diag(1, 1), file: 'vendor/x.ts' }],
  output: 'ignored when there are diagnostics',
};

const CONFIG = { maxTurns: 4, maxTokens: 1024 };

describe('runFix', () => {
  it('sends the command, its status and each diagnostic with its lines; the model edits at once; a rerun replays', async () => {
    const bodies: MessagesBody[] = [];
    const api = await fakeApi((body) => {
      bodies.push(body);
      if (turnOf(body) === 0) {
        return message([tool('edit_file', { file_path: 'src/b.ts', old_string: 'rename', new_string: 'renamed', replace_all: true })]);
      }
      expect(toolResults(body)[0]!.is_error).toBeUndefined();
      return message(done('Renamed the three call sites.'));
    });
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/b.ts': B, 'src/a.ts': 'export function renamed(n: number) { return String(n); }\n', 'vendor/x.ts': 'x\n' });

    const out = await runFix(CONFIG, FAILED, files, env);
    expect(out).toMatchObject({ stopped: true, replayed: false, errors: [], summary: 'Renamed the three call sites.' });
    expect(out.usage.inputTokens).toBeGreaterThan(0);
    expect(files.text('src/b.ts')).toBe(B.replaceAll('rename(', 'renamed(').replace('{ rename }', '{ renamed }'));

    const first = firstMessageText(bodies[0]!);
    expect(first).toContain('The verify command `npx tsc --noEmit -p .` exited with status 2. It reported 4 problems');
    expect(first).toContain("src/b.ts:4:10: error TS2552: Cannot find name 'rename'. Did you mean 'renamed'?");
    expect(first).toContain('src/b.ts:40:21: error TS2552');
    // Lines around each diagnostic in cat -n form: 1..12 joined (4±4, 8±4), then 36..41; the rest left out.
    expect(first).toContain('     4\t  return rename(1);');
    expect(first).toContain('    12\t// filler 2');
    expect(first).not.toContain('    13\t');
    expect(first).toContain('    40\texport const last = rename(3);');
    // A file outside the job's selection is listed, not shown.
    expect(first).toMatch(/vendor\/x\.ts:1:1: error TS2552[^]*not among the files you may change/);
    expect(first).not.toContain('ignored when there are diagnostics');
    expect(JSON.stringify(bodies)).not.toContain(KEY);

    // The same failure over the same files: the cached answer, no request.
    const again = memFiles({ 'src/b.ts': B, 'src/a.ts': 'export function renamed(n: number) { return String(n); }\n', 'vendor/x.ts': 'x\n' });
    const requests = api.messages().length;
    const second = await runFix(CONFIG, FAILED, again, env);
    expect(api.messages().length).toBe(requests);
    expect(second).toMatchObject({ stopped: true, replayed: true, usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 } });
    expect(again.text('src/b.ts')).toBe(files.text('src/b.ts'));
  });

  it('shows the output when no diagnostic could be read, and reports a model that did not stop', async () => {
    const bodies: MessagesBody[] = [];
    const api = await fakeApi((body) => {
      bodies.push(body);
      return message([tool('read_file', { file_path: 'src/a.ts' })]);
    });
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.ts': 'a\n' });
    const out = await runFix(
      { ...CONFIG, maxTurns: 2, prompt: 'Make the tests pass' },
      { command: 'make test', status: null, signal: 'SIGKILL', diagnostics: [], output: 'Segmentation fault\n' },
      files,
      env,
    );
    expect(out.stopped).toBe(false);
    expect(out.errors[0]!.failure.kind).toBe('agent');
    expect(out.errors[0]!.failure.message).toContain('maxTurns (2)');
    const first = firstMessageText(bodies[0]!);
    expect(first).toContain('Task: Make the tests pass');
    expect(first).toContain('`make test` was killed by SIGKILL');
    expect(first).toContain('<output>\nSegmentation fault\n</output>');
  });

  it('makes no request without an API key', async () => {
    const env = await testEnv(null, { vars: { ANTHROPIC_API_KEY: undefined } });
    const out = await runFix(CONFIG, FAILED, memFiles({ 'src/b.ts': B }), env);
    expect(out.stopped).toBe(false);
    expect(out.errors[0]!.failure.message).toContain('ANTHROPIC_API_KEY');
  });
});
