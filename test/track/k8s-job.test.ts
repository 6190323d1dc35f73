// The Kubernetes example in recipes/ci: an Indexed Job of N pods whose scion takes its shard from
// JOB_COMPLETION_INDEX (`--shard auto/N` with N the Job's completions), each index retried on its own,
// and a merge step that joins every pod's report and opens the pull requests.
//
// No cluster here, so the manifest is first read as Kubernetes reads it, then run as its pods would
// run it: for each index 0..N-1, the container's `command` and `args` with Kubernetes' `$(VAR)`
// expansion over the container's environment (envFrom the secret, `env`, and the JOB_COMPLETION_INDEX
// the Job controller adds), with a PATH holding only `sh`, `node` and `npx` (the image,
// node:24-bookworm-slim, has no git). `npx --yes scion-codemod@VERSION` runs this checkout's scion
// (the version must be the package's). Each volume is a folder: the ConfigMap's files, one folder for
// the PersistentVolumeClaim every pod shares, a fresh folder per pod for each emptyDir and for the
// container's own working directory; the manifest's mount paths are rewritten to those folders,
// the one liberty taken. An index that exits with a code the podFailurePolicy does not fail is retried
// up to backoffLimitPerIndex times. Then the merge Job's pod runs the same way (its cache an empty
// emptyDir of its own), and is run a second time as its backoffLimit would after a failure: the
// merged report, the branches (judged by native git) and one pull request per repository must hold.
//
// The targets: three bare repositories behind git http-backend on 127.0.0.1, each with its own fake
// GitHub behind one API URL, and a fourth URL where nothing answers (its index fails, FailIndex).
// The secret holds GITHUB_TOKEN and, as a GitHub Enterprise user's would, GITHUB_API_URL and
// GITHUB_SERVER_URL. Indexes run 4 at a time (the manifest's parallelism is 8; the machine has 2 cores).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseShard } from '../../src/cli/flags/rules.js';
import type { RunReport } from '../../src/model/types.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { useFakeGitHubs, useGitServer } from '../support/servers.js';
import { SCION_COMMAND } from '../support/spawn-cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const FILE = join(ROOT, 'recipes/ci/campaign-k8s.yaml');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Container {
  name: string;
  image: string;
  workingDir?: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value: string }[];
  envFrom?: { secretRef?: { name: string }; configMapRef?: { name: string } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}

interface Volume {
  name: string;
  configMap?: { name: string };
  persistentVolumeClaim?: { claimName: string };
  emptyDir?: Record<string, never>;
}

interface PodSpec {
  restartPolicy: string;
  containers: Container[];
  volumes: Volume[];
}

interface Doc {
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown> & { template?: { spec: PodSpec } };
}

const docs = parseAllDocuments(readFileSync(FILE, 'utf8')).map((d) => d.toJS() as Doc);
const job = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'scion-campaign')!;
const merge = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'scion-campaign-merge')!;

describe('recipes/ci/campaign-k8s.yaml, as Kubernetes reads it', () => {
  it('is an Indexed Job retried per index, whose pods run the shard of their index', () => {
    expect(job.spec['completionMode']).toBe('Indexed');
    expect(job.spec['backoffLimitPerIndex']).toBeGreaterThan(0);
    expect(job.spec.template!.spec.restartPolicy).toBe('Never');
    const args = job.spec.template!.spec.containers[0]!.args!.join(' ');
    const shard = /--shard (\S+)/.exec(args)![1]!;
    expect(parseShard(shard)).toEqual({ index: 'auto', count: job.spec['completions'] });
    expect(args).toContain('--report /reports/report-$(JOB_COMPLETION_INDEX).json');
    // exit 1 (a job of the shard failed) fails that index at once; its report is written all the same.
    const rules = (job.spec['podFailurePolicy'] as { rules: { action: string; onExitCodes?: { values: number[] } }[] }).rules;
    expect(rules.find((r) => r.onExitCodes)).toMatchObject({ action: 'FailIndex', onExitCodes: { values: [1, 2] } });
  });

  it('the merge step joins every report and publishes from one process', () => {
    const args = merge.spec.template!.spec.containers[0]!.args!.join(' ');
    expect(args).toMatch(/merge-reports \/reports\/report-\*\.json --report out\.json/);
    expect(args).toMatch(/ pr \/campaign\/recipe\.yaml --report out\.json/);
  });
});

/** Kubernetes' expansion of `$(VAR)` in command and args: a defined variable's value, `$$` for `$`, anything else left as it is. */
function expandK8s(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (all, name: string | undefined) =>
    name === undefined ? '$' : Object.hasOwn(env, name) ? env[name]! : all,
  );
}

/** `text` with each mount path (at a path boundary) replaced by the folder standing for it. */
function remount(text: string, mounts: readonly (readonly [string, string])[]): string {
  let out = text;
  for (const [path, dir] of [...mounts].sort((a, b) => b[0].length - a[0].length)) {
    out = out.replace(new RegExp(`(?<![\\w./-])${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?=/|\\s|;|$)`, 'g'), dir);
  }
  return out;
}

interface PodRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface Cluster {
  /** The folders standing for the ConfigMap and the PersistentVolumeClaim (shared by every pod). */
  readonly configMaps: Readonly<Record<string, string>>;
  readonly claims: Readonly<Record<string, string>>;
  /** The secret envFrom reads. */
  readonly secrets: Readonly<Record<string, Record<string, string>>>;
  /** Where each pod gets its own folders (emptyDir, the container's filesystem). */
  readonly scratch: string;
  /** PATH of every pod: sh, node and npx. */
  readonly bin: string;
}

let pods = 0;

/** Runs the one container of `spec` as a pod would, with `extraEnv` (the Job controller's) in its environment. */
function runPod(cluster: Cluster, spec: PodSpec, extraEnv: Record<string, string>): Promise<PodRun> {
  expect(spec.containers).toHaveLength(1);
  const c = spec.containers[0]!;
  const pod = join(cluster.scratch, `pod-${pods++}`);
  mkdirSync(pod, { recursive: true });
  const mounts: [string, string][] = (c.volumeMounts ?? []).map((m) => {
    const v = spec.volumes.find((x) => x.name === m.name)!;
    if (v.configMap) return [m.mountPath, cluster.configMaps[v.configMap.name]!];
    if (v.persistentVolumeClaim) return [m.mountPath, cluster.claims[v.persistentVolumeClaim.claimName]!];
    expect(v.emptyDir).toBeDefined();
    const dir = join(pod, `empty-${m.name}`);
    mkdirSync(dir);
    return [m.mountPath, dir];
  });
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) Object.assign(env, cluster.secrets[from.secretRef!.name]!);
  for (const e of c.env ?? []) env[e.name] = remount(expandK8s(e.value, env), mounts);
  Object.assign(env, extraEnv);
  // The container's own filesystem: its working directory is made when it starts, unless mounted.
  const cwd = c.workingDir === undefined ? pod : mounts.some(([p]) => c.workingDir === p) ? remount(c.workingDir, mounts) : join(pod, 'rootfs', c.workingDir);
  mkdirSync(cwd, { recursive: true });
  const [file, ...args] = [...(c.command ?? []), ...(c.args ?? [])].map((a) => remount(expandK8s(a, env), mounts));
  const home = join(pod, 'root');
  mkdirSync(home);
  return new Promise((resolve) => {
    const child = spawn(file!, args, { cwd, env: { ...env, PATH: cluster.bin, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e) => resolve({ code: null, stdout, stderr: `${stderr}${String(e)}` }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What the podFailurePolicy does with an exit code: FailIndex, Ignore (retried, not counted) or the default (counted against the index). */
function policyFor(code: number | null): 'FailIndex' | 'count' {
  const rules = (job.spec['podFailurePolicy'] as { rules: { action: string; onExitCodes?: { operator: string; values: number[] } }[] }).rules;
  const rule = rules.find((r) => r.onExitCodes?.operator === 'In' && code !== null && r.onExitCodes.values.includes(code));
  return rule?.action === 'FailIndex' ? 'FailIndex' : 'count';
}

const NAMES = ['alpha', 'beta', 'gamma'];
const GONE = 'http://127.0.0.1:9/acme/gone.git';
const RECIPE = 'name: new-log\nsteps:\n  - replace: { old_string: "legacyLog(", new_string: "log(" }\n';
const BRANCH = 'scion/new-log';

describe('recipes/ci/campaign-k8s.yaml, run as its pods would run it', () => {
  const server = useGitServer();
  const github = useFakeGitHubs('acme', NAMES, 'all');
  const bare: Record<string, { dir: string; url: string }> = {};
  const id = (url: string) => url.replace(/^https?:\/\//, '').replace(/\.git$/, '');
  let scratch: string;
  let cluster: Cluster;
  /** Each index's attempts, in order. */
  const attempts = new Map<number, PodRun[]>();
  let mergeRuns: PodRun[] = [];
  let list: string[];

  beforeAll(async () => {
    scratch = realpathSync(mkdtempSync(join(tmpdir(), 'scion-k8s-')));
    for (const name of NAMES) {
      bare[name] = server.bare(`acme/${name}.git`);
      const src = await gitRepo({ 'src/log.ts': `export const ${name} = legacyLog('${name}');\n`, 'README.md': `# ${name}\n` });
      src.git('push', '-q', bare[name]!.dir, 'main');
      await src.cleanup();
    }
    // Line k is job k, run by the pod of index k mod 32: the unreachable repository is index 2's.
    list = [bare['alpha']!.url, bare['beta']!.url, GONE, bare['gamma']!.url];
    const configMap = join(scratch, 'configmap-scion-campaign');
    mkdirSync(configMap);
    writeFileSync(join(configMap, 'recipe.yaml'), RECIPE);
    writeFileSync(join(configMap, 'repos.txt'), `# the campaign\n${list.join('\n')}\n`);
    const claim = join(scratch, 'pvc-scion-reports');
    mkdirSync(claim);
    const bin = join(scratch, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    symlinkSync('/bin/sh', join(bin, 'sh'));
    writeFileSync(
      join(bin, 'npx'),
      `#!/bin/sh
if [ "$1" != --yes ] || [ "$2" != "scion-codemod@${VERSION}" ]; then
  echo "pod test: npx $* is not modelled (the manifest should run npx --yes scion-codemod@${VERSION})" >&2
  exit 127
fi
shift 2
exec ${SCION_COMMAND.map((a) => `'${a}'`).join(' ')} "$@"
`,
    );
    chmodSync(join(bin, 'npx'), 0o755);
    cluster = {
      configMaps: { 'scion-campaign': configMap },
      claims: { 'scion-reports': claim },
      secrets: { 'scion-tokens': { GITHUB_TOKEN: server.token, GITHUB_API_URL: github.url, GITHUB_SERVER_URL: server.url } },
      scratch,
      bin,
    };

    const completions = job.spec['completions'] as number;
    expect(completions).toBe(32);
    const backoffLimitPerIndex = job.spec['backoffLimitPerIndex'] as number;
    const queue = Array.from({ length: completions }, (_, i) => i);
    const worker = async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const runs: PodRun[] = [];
        attempts.set(i, runs);
        for (;;) {
          const r = await runPod(cluster, job.spec.template!.spec, { JOB_COMPLETION_INDEX: String(i) });
          runs.push(r);
          if (r.code === 0 || policyFor(r.code) === 'FailIndex' || runs.length > backoffLimitPerIndex) break;
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    // kubectl wait … || kubectl wait --for=condition=failed: the merge Job runs either way.
    mergeRuns = [await runPod(cluster, merge.spec.template!.spec, {})];
  }, 600_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const log = (runs: readonly PodRun[]) => runs.map((r) => `exit ${r.code}\n${r.stdout}\n${r.stderr}`).join('\n---\n');

  it('runs every index once: exit 0, but 1 for the index holding the unreachable repository, which is not retried (FailIndex)', () => {
    const completions = job.spec['completions'] as number;
    expect(completions).toBe(32);
    expect([...attempts.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: completions }, (_, i) => i));
    for (const [i, runs] of attempts) {
      expect(runs.length, `index ${i}: ${log(runs)}`).toBe(1);
      expect(runs[0]!.code, `index ${i}: ${log(runs)}`).toBe(i === 2 ? 1 : 0);
    }
    expect(attempts.get(0)![0]!.stderr).toContain(`cloning ${id(bare['alpha']!.url)}`);
  });

  it("writes every index's report to the shared volume, each holding the jobs of its shard (line k in index k mod 32)", () => {
    const completions = job.spec['completions'] as number;
    expect(completions).toBe(32);
    const files = readdirSync(cluster.claims['scion-reports']!).filter((f) => /^report-\d+\.json$/.test(f));
    expect(files.sort()).toEqual(Array.from({ length: completions }, (_, i) => `report-${i}.json`).sort());
    for (let i = 0; i < completions; i++) {
      const report = JSON.parse(readFileSync(join(cluster.claims['scion-reports']!, `report-${i}.json`), 'utf8')) as RunReport;
      expect(report.jobs.map((j) => j.repo)).toEqual(list.filter((_, k) => k % completions === i).map(id));
    }
  });

  it('the merge pod joins the reports and opens one pull request per changed repository, from an empty cache', async () => {
    const run = mergeRuns[0]!;
    expect(run.code, log(mergeRuns)).toBe(0);
    const folder = cluster.claims['scion-reports']!;
    const merged = JSON.parse(readFileSync(join(folder, 'out.json'), 'utf8')) as RunReport;
    expect(merged.jobs.map((j) => [j.repo, j.status]).sort()).toEqual([...NAMES.map((n) => [id(bare[n]!.url), 'changed']), [id(GONE), 'failed']].sort());
    expect(readFileSync(join(folder, 'report.html'), 'utf8')).toContain('<html');
    for (const name of NAMES) {
      const j = merged.jobs.find((x) => x.repo === id(bare[name]!.url))!;
      expect(runGit(bare[name]!.dir, 'rev-parse', BRANCH)).toBe(j.head);
      expect(runGit(bare[name]!.dir, 'show', `${BRANCH}:src/log.ts`)).toBe(`export const ${name} = log('${name}');`);
      runGit(bare[name]!.dir, 'fsck', '--strict', '--no-dangling');
      expect(github.fakes[name]!.pulls.map((p) => [p.head, p.base, p.labels])).toEqual([[BRANCH, 'main', ['codemod']]]);
      expect(run.stdout).toContain(`${id(bare[name]!.url)}: created pull request #100 for ${BRANCH}`);
    }
  });

  it('run again (the merge Job retried), the merge pod opens no second pull request', async () => {
    const again = await runPod(cluster, merge.spec.template!.spec, {});
    mergeRuns.push(again);
    expect(again.code, log(mergeRuns)).toBe(0);
    for (const name of NAMES) {
      expect(github.fakes[name]!.pulls).toHaveLength(1);
      expect(github.fakes[name]!.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/pulls'))).toHaveLength(1);
    }
  }, 120_000);
});
