// The Kubernetes example in recipes/ci: an Indexed Job of N pods whose scion takes its shard from
// JOB_COMPLETION_INDEX (`--shard auto/N` with N the Job's completions), each index retried on its own,
// and a merge step that joins every pod's report and opens the pull requests. No cluster here: the
// manifest is read as Kubernetes reads it, and the pods' command line is run as a pod would run it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseShard } from '../../src/cli/flags/rules.js';

const FILE = new URL('../../recipes/ci/campaign-k8s.yaml', import.meta.url).pathname;

interface Doc {
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown> & { template?: { spec: { restartPolicy: string; containers: { name: string; args: string[] }[] } } };
}

describe('recipes/ci/campaign-k8s.yaml', () => {
  const docs = parseAllDocuments(readFileSync(FILE, 'utf8')).map((d) => d.toJS() as Doc);
  const job = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'scion-campaign')!;
  const merge = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'scion-campaign-merge')!;

  it('is an Indexed Job retried per index, whose pods run the shard of their index', () => {
    expect(job.spec['completionMode']).toBe('Indexed');
    expect(job.spec['backoffLimitPerIndex']).toBeGreaterThan(0);
    expect(job.spec.template!.spec.restartPolicy).toBe('Never');
    const args = job.spec.template!.spec.containers[0]!.args.join(' ');
    const shard = /--shard (\S+)/.exec(args)![1]!;
    expect(parseShard(shard)).toEqual({ index: 'auto', count: job.spec['completions'] });
    expect(args).toContain('--report /reports/report-$(JOB_COMPLETION_INDEX).json');
    // exit 1 (a job of the shard failed) fails that index at once; its report is written all the same.
    const rules = (job.spec['podFailurePolicy'] as { rules: { action: string; onExitCodes?: { values: number[] } }[] }).rules;
    expect(rules.find((r) => r.onExitCodes)).toMatchObject({ action: 'FailIndex', onExitCodes: { values: [1, 2] } });
  });

  it('the merge step joins every report and publishes from one process', () => {
    const args = merge.spec.template!.spec.containers[0]!.args.join(' ');
    expect(args).toMatch(/merge-reports \/reports\/report-\*\.json --report out\.json/);
    expect(args).toMatch(/ pr \/campaign\/recipe\.yaml --report out\.json/);
  });
});
