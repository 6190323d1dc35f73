// A failing verify with a fix is kept in the step cache; replayed by the next run (before any files
// are on disk, or in a pooled worktree whose name changed), the absolute paths its output named still
// give the same diagnostics, and the fix conversation gets the same message (so its answer replays
// too). Through the CLI against the fake Messages API.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobReport, RunReport } from '../../src/model/types.js';
import { KEY } from '../agent/mem-files.js';
import { done, firstMessageText, message } from '../agent/script.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeApisAfterEach } from '../support/servers.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const fakeApi = fakeApisAfterEach();

// ESLint's stylish block (the file's absolute path on a line of its own) and its unix format, as the
// real formatters print them: paths under the folder the command runs in.
const LINT = [
  'printf "\\n%s/src/a.ts\\n  1:7  error  Unexpected var  no-var\\n\\n" "$(pwd -P)"',
  'printf "%s/src/b.ts:2:3: Missing semicolon. [Error/semi]\\n" "$(pwd -P)"',
  'echo "$SCION_JOB" >> "$COUNTER"',
  'exit 1',
].join('; ');

describe('a cached failing verify', () => {
  it('gives the rerun the same diagnostics, and its fix the same message', async () => {
    const r = await repo({ 'src/a.ts': 'var a = 1;\n', 'src/b.ts': 'const b = 1;\nlegacy()\n', 'README.md': '# r\n' });
    const out = mkdtempSync(join(tmpdir(), 'scion-diag-'));
    cleanups.push(() => rmSync(out, { recursive: true, force: true }));
    const firsts: string[] = [];
    const api = await fakeApi((body) => {
      firsts.push(firstMessageText(body));
      return message(done('I cannot fix this.'));
    });
    const recipe = recipeFile(`name: lint
steps:
  - replace: { old_string: "legacy()", new_string: "modern()" }
verify:
  - run: '${LINT}'
    fix: { agent: { maxRounds: 1, maxTurns: 2 } }
`);
    const file = join(out, 'report.json');
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url, COUNTER: join(out, 'runs') };
    const run = async (): Promise<JobReport> => {
      const res = await scion(['run', recipe, '--repo', r.dir, '--report', file], { cwd: r.dir, env });
      expect(res.stderr).not.toContain('internal error');
      expect(res.code, res.stderr).toBe(1);
      return (JSON.parse(readFileSync(file, 'utf8')) as RunReport).jobs[0]!;
    };

    const first = await run();
    expect(first).toMatchObject({ status: 'failed', errors: [{ kind: 'command-failed' }] });
    expect(first.diagnostics?.map((d) => [d.file, d.line, d.col, d.message])).toEqual([
      ['src/a.ts', 1, 7, 'Unexpected var'],
      ['src/b.ts', 2, 3, 'Missing semicolon.'],
    ]);
    expect(firsts).toHaveLength(1);
    expect(firsts[0]).toContain('src/a.ts:1:7');

    // The rerun replays the failure (the command does not run), before any worktree exists.
    const again = await run();
    expect(readFileSync(join(out, 'runs'), 'utf8')).toBe('lint\n');
    expect(again.diagnostics).toEqual(first.diagnostics);
    expect(again).toMatchObject({ status: 'failed', errors: [{ kind: 'command-failed' }] });
    // Same diagnostics, same first message: the fix conversation's answer replays with no request.
    expect(firsts).toHaveLength(1);
  });
});
