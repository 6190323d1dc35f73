// `--shard auto/N` through the CLI: the shard comes from JOB_COMPLETION_INDEX (a Kubernetes indexed
// Job's pod, 0-based) or SCION_SHARD (1-based); neither, or an index outside the N shards, is bad
// usage before anything runs. And `merge-reports` joins 256 shard reports into the whole run.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { cleanupAfterEach } from '../support/cleanups.js';

const cleanups = cleanupAfterEach();

async function repoWith(jobs: number) {
  const files: Record<string, string> = {};
  for (let k = 0; k < jobs; k++) files[`f${k}.txt`] = `v1 ${k}\n`;
  const repo = await gitRepo(files);
  cleanups.push(repo.cleanup);
  const list = Array.from({ length: jobs }, (_, k) => `  - { name: j${k}, files: { include: ["f${k}.txt"] } }`).join('\n');
  const recipe = recipeFile(`name: many\njobs:\n${list}\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n`);
  return { repo, recipe };
}

const names = (r: RunReport) => r.jobs.map((j) => j.name);

describe('--shard auto/N', () => {
  it('takes the shard from JOB_COMPLETION_INDEX (0-based), else SCION_SHARD (1-based)', async () => {
    const { repo, recipe } = await repoWith(6);
    const run = async (env: Record<string, string>) => {
      const res = await scion(['run', recipe, '--repo', repo.dir, '--dry-run', '--json', '--shard', 'auto/3'], { cwd: repo.dir, env });
      expect(res.code, res.stderr).toBe(0);
      return names(JSON.parse(res.stdout) as RunReport);
    };
    expect(await run({ JOB_COMPLETION_INDEX: '0' })).toEqual(['j0', 'j3']);
    expect(await run({ JOB_COMPLETION_INDEX: '2' })).toEqual(['j2', 'j5']);
    expect(await run({ SCION_SHARD: '2' })).toEqual(['j1', 'j4']);
    // Kubernetes' own index wins where both are set.
    expect(await run({ JOB_COMPLETION_INDEX: '1', SCION_SHARD: '3' })).toEqual(['j1', 'j4']);
  });

  it('is bad usage (exit 2, nothing run) without an index, or with one outside the shards', async () => {
    const { repo, recipe } = await repoWith(2);
    const before = repo.git('for-each-ref');
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /--shard auto\/3 takes the shard from JOB_COMPLETION_INDEX .* neither is set/],
      [{ JOB_COMPLETION_INDEX: '3' }, /JOB_COMPLETION_INDEX is "3", not a shard of --shard auto\/3 \(0 to 2\)/],
      [{ SCION_SHARD: '0' }, /SCION_SHARD is "0", not a shard of --shard auto\/3 \(1 to 3\)/],
      [{ SCION_SHARD: 'two' }, /SCION_SHARD is "two"/],
    ];
    for (const [env, message] of cases) {
      const res = await scion(['run', recipe, '--repo', repo.dir, '--shard', 'auto/3'], { cwd: repo.dir, env });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(message);
    }
    expect((await scion(['run', recipe, '--repo', repo.dir, '--shard', 'auto/0'], { cwd: repo.dir })).code).toBe(2);
    expect(repo.git('for-each-ref')).toBe(before);
  });

  it('merge-reports joins 256 shard reports into every job of the run, once each', async () => {
    const { repo, recipe } = await repoWith(300);
    const whole = await scion(['run', recipe, '--repo', repo.dir, '--dry-run', '--report', 'all.json'], { cwd: repo.dir });
    expect(whole.code).toBe(0);
    const all = JSON.parse(readFileSync(join(repo.dir, 'all.json'), 'utf8')) as RunReport;
    // What 256 pods write: job k in shard k mod 256 + 1.
    const files: string[] = [];
    for (let i = 1; i <= 256; i++) {
      const file = join(repo.dir, `shard-${i}.json`);
      writeFileSync(file, JSON.stringify({ ...all, jobs: all.jobs.filter((_, k) => k % 256 === i - 1) }));
      files.push(file);
    }
    const merged = await scion(['merge-reports', ...files, '--report', 'merged.json'], { cwd: repo.dir });
    expect(merged.code).toBe(0);
    const out = JSON.parse(readFileSync(join(repo.dir, 'merged.json'), 'utf8')) as RunReport;
    expect(out.jobs).toHaveLength(300);
    expect([...names(out)].sort()).toEqual([...names(all)].sort());
    expect(out.jobs.every((j) => j.status === 'changed')).toBe(true);
  });
});
