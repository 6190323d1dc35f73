// The agent's response cache is replayed through the tools' gate and the engine like a fresh answer:
// through the CLI, an entry edited to write through a tracked symlink writes nothing outside the
// repository (the replay is refused, said in the log, and the model is asked again), and an entry
// that is not what scion writes is ignored with a line naming its file, never fatal.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { KEY } from '../agent/mem-files.js';
import { done, scripted, tool } from '../agent/script.js';
import { scion } from '../support/cli.js';
import { cleanupAfterEach, reposAfterEach } from '../support/cleanups.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeApisAfterEach } from '../support/servers.js';

const repo = reposAfterEach();
const cleanups = cleanupAfterEach();
const fakeApi = fakeApisAfterEach();

describe('agent response cache replay', () => {
  it('refuses an entry edited to write through a symlink, and ignores a malformed one; the model is asked again', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'scion-outside-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    const r = await repo({ 'src/a.ts': 'a\n', 'src/lnk': { content: outside, mode: 'symlink' } });
    // Every conversation (each run's) writes the same new file, then ends.
    const api = await fakeApi(scripted({ job: [[tool('write_file', { file_path: 'src/gen.ts', content: 'export const gen = 1;\n' })], done()] }));
    const recipe = recipeFile('name: agent-gen\nsteps:\n  - agent:\n      prompt: Generate\n      per: job\n');
    const run = async () => {
      const res = await scion(['run', recipe, '--repo', r.dir, '--json'], { cwd: r.dir, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.url } });
      expect(res.stderr).not.toContain('internal error');
      return { ...res, job: (JSON.parse(res.stdout) as RunReport).jobs[0]! };
    };

    const first = await run();
    expect(first.code).toBe(0);
    expect(first.job.files.map((f) => f.path)).toEqual(['src/gen.ts']);
    expect(api.messages()).toHaveLength(2);
    // A rerun replays with no request.
    expect((await run()).job.status).toBe('unchanged');
    expect(api.messages()).toHaveLength(2);

    const dir = join(r.dir, '.git', 'scion', 'agent-cache');
    const [name] = readdirSync(dir).filter((n) => n.endsWith('.json'));
    const file = join(dir, name!);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { changes: { path: string }[] };
    writeFileSync(file, JSON.stringify({ ...entry, changes: [{ ...entry.changes[0]!, path: 'src/lnk/pwn.txt' }] }));
    const edited = await run();
    expect(readdirSync(outside)).toEqual([]);
    expect(edited.stderr).toMatch(/cached answer for src\/lnk\/pwn\.txt not replayed/);
    expect(api.messages()).toHaveLength(4);
    expect(edited.code).toBe(0);
    expect(edited.job.status).toBe('unchanged');

    for (const bad of [{ ...entry, changes: [{ path: 7 }] }, { ...entry, changes: null }, { ...entry, usage: 'free' }, []]) {
      writeFileSync(file, JSON.stringify(bad));
      const res = await run();
      expect(res.code, JSON.stringify(bad)).toBe(0);
      expect(res.stderr).toContain(`response cache entry ${file}`);
      expect(res.job.status).toBe('unchanged');
    }
    expect(api.messages()).toHaveLength(12);
  });
});
