// The example workflow in recipes/ci is documentation users copy: it must stay valid YAML with the
// shape GitHub Actions expects, and its shard matrix must match the `--shard I/N` it passes.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

interface Step { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string>; if?: string }
interface Job { needs?: string; if?: string; strategy?: { matrix: { shard: number[] } }; steps: Step[] }
interface Workflow { on: { schedule: { cron: string }[] }; permissions: Record<string, string>; jobs: Record<string, Job> }

describe('recipes/ci/scheduled-codemod.yml', async () => {
  const text = await readFile(new URL('../../recipes/ci/scheduled-codemod.yml', import.meta.url), 'utf8');
  const wf = parse(text) as Workflow;

  it('runs on a schedule with write permissions for branches and pull requests', () => {
    expect(wf.on.schedule[0]!.cron.split(' ')).toHaveLength(5);
    expect(wf.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
  });

  it('shards the run over the matrix and uploads every shard\'s report', () => {
    const run = wf.jobs.run!;
    const shards = run.strategy!.matrix.shard;
    const command = run.steps.find((s) => s.run?.includes('scion run'))!.run!;
    expect(command).toContain(`--shard \${{ matrix.shard }}/${shards.length}`);
    expect(shards).toEqual(Array.from({ length: shards.length }, (_, i) => i + 1));
    expect(command).toContain('--report report-${{ matrix.shard }}.json');
    expect(command).toContain('--push');
    const upload = run.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(String(upload.with!.path)).toContain('report-${{ matrix.shard }}.json');
    expect(upload.if).toContain('!cancelled()');
  });

  it('merges the reports and opens pull requests after all shards', () => {
    const pr = wf.jobs['pull-requests']!;
    expect(pr.needs).toBe('run');
    const runs = pr.steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toMatch(/scion merge-reports reports\/report-\*\.json\s+--report out\.json\s+--pr-body pr\.md/);
    expect(runs).toMatch(/scion pr --report out\.json/);
    const prStep = pr.steps.find((s) => s.run?.includes('scion pr'))!;
    expect(prStep.env!.GITHUB_TOKEN).toBe('${{ secrets.GITHUB_TOKEN }}');
    const download = pr.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!;
    expect(download.with).toMatchObject({ pattern: 'scion-report-*', 'merge-multiple': true, path: 'reports' });
  });
});
