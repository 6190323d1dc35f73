// Runs a GitHub Actions workflow file the way a runner would, closely enough to prove the example
// users copy: jobs in `needs` order (a matrix job once per value), each on a fresh checkout, every
// `run:` step executed by bash (`-eo pipefail`, as GitHub does) with GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY, GITHUB_PATH and GITHUB_ENV honoured, and each job's and step's `if:` obeyed
// after a failure. `uses:` steps are stood in for: checkout clones the remote (depth and stored
// credentials as actions/checkout leaves them), the artifact actions copy to a local folder,
// setup-node does nothing (Node is already here), actions/cache restores and saves a folder in an
// ActionsCache that outlives one run (cacheStore). Anything else the workflow asks for throws, so
// the test notices when the example starts relying on something this harness does not model.
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';
import { parse } from 'yaml';
import { gitEnv } from '../support/git-repo.js';
import { gitAsync } from '../support/git-remote.js';
import { SCION_COMMAND } from '../support/spawn-cli.js';

export interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, string>;
  readonly if?: string;
}

export interface Job {
  readonly name?: string;
  readonly needs?: string | string[];
  readonly if?: string;
  readonly env?: Record<string, string>;
  readonly strategy?: { matrix: Record<string, unknown[]> };
  /** A job's steps; none for a call of a reusable workflow (`uses:` at the job's level). */
  readonly steps?: Step[];
  /** `./.github/workflows/x.yml`: the job calls that reusable workflow, once per matrix value. */
  readonly uses?: string;
  /** The called workflow's inputs (`${{ inputs.name }}` there). */
  readonly with?: Record<string, unknown>;
  /** The secrets the called workflow gets, by its names. */
  readonly secrets?: Record<string, string>;
}

export interface Workflow {
  readonly env?: Record<string, string>;
  readonly jobs: Record<string, Job>;
  readonly [key: string]: unknown;
}

export interface StepResult {
  readonly job: string;
  readonly step: string;
  readonly outcome: 'success' | 'failure' | 'skipped';
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
  readonly summary: string;
}

export interface JobResult {
  readonly job: string;
  readonly matrix: Record<string, string>;
  readonly result: 'success' | 'failure' | 'skipped';
  /** Where the job ran (the same path for every job, as on hosted runners); null when skipped. */
  readonly workspace: string | null;
}

export interface RunnerOptions {
  /** The repository actions/checkout clones (http URL of the test git server). */
  readonly cloneUrl: string;
  /** The branch the workflow runs for (GITHUB_REF_NAME); checkout takes its current commit. */
  readonly ref: string;
  /** Config actions/checkout stores in the clone so later git commands authenticate. */
  readonly extraHeader: { readonly url: string; readonly value: string };
  /** `${{ secrets.NAME }}` values. */
  readonly secrets: Readonly<Record<string, string>>;
  /** Variables every step sees (GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_REPOSITORY, …). */
  readonly env: Readonly<Record<string, string>>;
  /** A folder whose programs come first on PATH (the runner's preinstalled tools). */
  readonly toolsDir: string;
  /** Where workspaces, artifacts and step files go. */
  readonly root: string;
  /** actions/cache's store: pass the same one to several runs so a later run restores an earlier one's saves. */
  readonly cache?: ActionsCache;
  /** `${{ github.run_id }}`; by default a new one each runWorkflow call. */
  readonly runId?: string;
  /** Reads the workflow a job's `uses:` names (a reusable workflow); without it such a job throws. */
  readonly calledWorkflow?: (uses: string) => Promise<Workflow>;
  /** `${{ inputs.name }}` in a called workflow. */
  readonly inputs?: Readonly<Record<string, string>>;
}

/** What actions/cache keeps between runs (GitHub keeps it per repository, 7 days, 10 GB). */
export interface ActionsCache {
  /** Where the saved folders are kept. */
  readonly dir: string;
  /** Oldest first. */
  readonly entries: { readonly key: string; readonly path: string; readonly dir: string; readonly runId: string }[];
}

export function cacheStore(dir: string): ActionsCache {
  return { dir, entries: [] };
}

let runs = 0;

export interface WorkflowRun {
  readonly jobs: JobResult[];
  readonly steps: StepResult[];
  /** Artifact name → folder holding its files. */
  readonly artifacts: Map<string, string>;
  /** `${{ github.run_id }}` of this run. */
  readonly runId: string;
}

export async function loadWorkflow(path: string): Promise<Workflow> {
  return parse(await readFile(path, 'utf8')) as Workflow;
}

export async function runWorkflow(wf: Workflow, o: RunnerOptions): Promise<WorkflowRun> {
  const run: WorkflowRun = { jobs: [], steps: [], artifacts: new Map(), runId: o.runId ?? `${Date.now()}${++runs}` };
  await runInto(wf, o, run, { n: 0 }, '');
  return run;
}

/**
 * The jobs of `wf` into `run`. A job that calls a reusable workflow runs that workflow's jobs once per
 * value of its own matrix, with its `with:` as inputs and its `secrets:` as secrets; their jobs are
 * named `caller/called` and share the run's artifacts, as GitHub shows them.
 */
async function runInto(wf: Workflow, o: RunnerOptions, run: WorkflowRun, counter: { n: number }, prefix: string): Promise<'success' | 'failure' | 'skipped'> {
  const done = new Map<string, 'success' | 'failure' | 'skipped'>();
  let overall: 'success' | 'failure' | 'skipped' = 'skipped';
  for (const [id, job] of ordered(wf.jobs)) {
    const needs = typeof job.needs === 'string' ? [job.needs] : (job.needs ?? []);
    const needResults = needs.map((n) => done.get(n) ?? 'skipped');
    // A job's default condition is success(): every job it needs succeeded.
    const state = { failed: needResults.some((r) => r === 'failure'), needsOk: needResults.every((r) => r === 'success') };
    const runIt = condition(job.if, { failed: state.failed, success: state.needsOk });
    const matrices = expandMatrix(job.strategy?.matrix);
    let jobOutcome: 'success' | 'failure' | 'skipped' = 'skipped';
    for (const matrix of matrices) {
      if (!runIt) {
        run.jobs.push({ job: `${prefix}${id}`, matrix, result: 'skipped', workspace: null });
        continue;
      }
      let result: 'success' | 'failure' | 'skipped';
      if (job.uses !== undefined) {
        if (!o.calledWorkflow) throw new Error(`job ${id} calls ${job.uses}: pass calledWorkflow in the runner options`);
        const ctx = contextOf(matrix, o, run);
        const inputs = Object.fromEntries(Object.entries(subst(job.with ?? {}, ctx)).map(([k, v]) => [k, String(v)]));
        const secrets = subst(job.secrets ?? {}, ctx);
        result = await runInto(await o.calledWorkflow(job.uses), { ...o, inputs, secrets }, run, counter, `${prefix}${id}/`);
      } else {
        const one = await runJob(wf, `${prefix}${id}`, job, matrix, o, run, `${++counter.n}`);
        run.jobs.push(one);
        result = one.result;
      }
      if (result === 'failure') jobOutcome = 'failure';
      else if (jobOutcome === 'skipped' && result === 'success') jobOutcome = 'success';
    }
    done.set(id, jobOutcome);
    if (jobOutcome === 'failure') overall = 'failure';
    else if (overall === 'skipped' && jobOutcome === 'success') overall = 'success';
  }
  return overall;
}

/** What `${{ … }}` may name in a job: its matrix, the secrets, the run's id, a called workflow's inputs. */
function contextOf(matrix: Record<string, string>, o: RunnerOptions, run: WorkflowRun): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(matrix).map(([k, v]) => [`matrix.${k}`, v])),
    ...Object.fromEntries(Object.entries(o.secrets).map(([k, v]) => [`secrets.${k}`, v])),
    ...Object.fromEntries(Object.entries(o.inputs ?? {}).map(([k, v]) => [`inputs.${k}`, v])),
    'github.run_id': run.runId,
  };
}

async function runJob(wf: Workflow, id: string, job: Job, matrix: Record<string, string>, o: RunnerOptions, run: WorkflowRun, n: string): Promise<JobResult> {
  const home = join(o.root, `job-${n}`);
  // Hosted runners check every job out at the same path (/home/runner/work/<repo>/<repo>); the
  // jobs run one after another here, so each starts from an empty folder at that one path.
  const workspace = join(o.root, 'work', 'repo');
  await rm(workspace, { recursive: true, force: true });
  await mkdir(join(home, 'files'), { recursive: true });
  // A fresh runner: its own home folder, nothing left by an earlier job but the artifacts.
  await mkdir(join(home, 'home'), { recursive: true });
  const ctx = contextOf(matrix, o, run);
  // Post steps (actions/cache's save), run in reverse order when the job ends, as the runner does.
  const post: { label: string; if: (failed: boolean) => boolean; fn: () => Promise<{ code: number; stdout: string; stderr: string }> }[] = [];
  const pathFile = join(home, 'files', 'path');
  const envFile = join(home, 'files', 'env');
  await writeFile(pathFile, '');
  await writeFile(envFile, '');
  let failed = false;
  let k = 0;
  for (const step of job.steps ?? []) {
    const label = step.name ?? step.uses ?? step.run ?? '?';
    if (!condition(step.if, { failed, success: !failed })) {
      run.steps.push({ job: id, step: label, outcome: 'skipped', exitCode: null, stdout: '', stderr: '', outputs: {}, summary: '' });
      continue;
    }
    const files = { output: join(home, 'files', `output-${++k}`), summary: join(home, 'files', `summary-${k}`) };
    await writeFile(files.output, '');
    await writeFile(files.summary, '');
    let result: { code: number; stdout: string; stderr: string };
    if (step.uses !== undefined) {
      result = await useAction(step, subst(step.with ?? {}, ctx), workspace, o, run, files.output, (fn) => post.unshift({ label: `Post ${label}`, ...fn }));
    } else if (step.run !== undefined) {
      const addedPath = (await readFile(pathFile, 'utf8'))
        .split('\n')
        .filter((l) => l !== '')
        .reverse();
      const env: Record<string, string> = {
        ...baseEnv(),
        ...o.env,
        ...parseEnvFile(await readFile(envFile, 'utf8')),
        ...subst(wf.env ?? {}, ctx),
        ...subst(job.env ?? {}, ctx),
        ...subst(step.env ?? {}, ctx),
        PATH: [...addedPath, o.toolsDir, process.env['PATH'] ?? ''].join(':'),
        HOME: join(home, 'home'),
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: workspace,
        RUNNER_TEMP: join(home, 'files'),
        GITHUB_OUTPUT: files.output,
        GITHUB_STEP_SUMMARY: files.summary,
        GITHUB_PATH: pathFile,
        GITHUB_ENV: envFile,
      };
      const script = join(home, 'files', `step-${k}.sh`);
      await writeFile(script, subst(step.run, ctx));
      result = await exec('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], workspace, env);
    } else {
      throw new Error(`step ${label} of ${id} has neither uses nor run`);
    }
    const outcome = result.code === 0 ? 'success' : 'failure';
    if (outcome === 'failure') failed = true;
    run.steps.push({
      job: id,
      step: label,
      outcome,
      exitCode: result.code,
      stdout: result.stdout,
      stderr: result.stderr,
      outputs: parseEnvFile(await readFile(files.output, 'utf8')),
      summary: await readFile(files.summary, 'utf8'),
    });
  }
  for (const p of post) {
    if (!p.if(failed)) {
      run.steps.push({ job: id, step: p.label, outcome: 'skipped', exitCode: null, stdout: '', stderr: '', outputs: {}, summary: '' });
      continue;
    }
    const result = await p.fn();
    if (result.code !== 0) failed = true;
    run.steps.push({
      job: id,
      step: p.label,
      outcome: result.code === 0 ? 'success' : 'failure',
      exitCode: result.code,
      stdout: result.stdout,
      stderr: result.stderr,
      outputs: {},
      summary: '',
    });
  }
  return { job: id, matrix, result: failed ? 'failure' : 'success', workspace };
}

type PostStep = { if: (failed: boolean) => boolean; fn: () => Promise<{ code: number; stdout: string; stderr: string }> };

/**
 * actions/cache@v4 (https://github.com/actions/cache; its action.yml: `main` restores, `post` saves,
 * with `post-if: success()`): the step restores, and at the end of the job, only if no step failed,
 * it saves `path` under `key` unless the key matched exactly. actions/cache/restore@v4 and
 * actions/cache/save@v4 are the two halves as steps of their own (the save obeys its step's `if:`).
 */
async function actionsCache(
  w: Record<string, unknown>,
  workspace: string,
  o: RunnerOptions,
  run: WorkflowRun,
  outputFile: string,
  addPost: (p: PostStep) => void,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const restored = await cacheRestore(w, workspace, o, outputFile);
  if (restored.code === 0) {
    addPost({
      if: (failed) => !failed,
      fn: async () =>
        restored.exact
          ? { code: 0, stdout: `Cache hit occurred on the primary key ${String(w['key'])}, not saving cache.\n`, stderr: '' }
          : cacheSave(w, workspace, o, run),
    });
  }
  return restored;
}

function cacheInputs(w: Record<string, unknown>, o: RunnerOptions, allowed: string[]): { store: ActionsCache; key: string; path: string } | { error: string } {
  const store = o.cache;
  if (!store) throw new Error('the workflow uses actions/cache: pass a cache store (cacheStore) in the runner options');
  for (const k of Object.keys(w)) if (!['key', 'path', ...allowed].includes(k)) throw new Error(`the workflow harness does not model actions/cache's ${k}`);
  const key = String(w['key'] ?? '');
  const path = String(w['path'] ?? '').trim();
  if (key === '' || path === '') return { error: `Input required and not supplied: ${key === '' ? 'key' : 'path'}` };
  if (path.includes('\n') || /[*?[]/.test(path)) throw new Error(`the workflow harness models actions/cache of one plain folder, not ${path}`);
  return { store, key, path };
}

/**
 * The restore: the entry whose key is `key`, else for each of `restore-keys` in turn the newest entry
 * whose key starts with it (entries are versioned by their paths, so only one saved from the same
 * `path` matches); `cache-hit` is true on an exact match only (actions/cache/restore also sets
 * cache-primary-key and cache-matched-key).
 */
async function cacheRestore(
  w: Record<string, unknown>,
  workspace: string,
  o: RunnerOptions,
  outputFile: string,
): Promise<{ code: number; stdout: string; stderr: string; exact: boolean }> {
  const inputs = cacheInputs(w, o, ['restore-keys']);
  if ('error' in inputs) return { code: 1, stdout: '', stderr: inputs.error, exact: false };
  const { store, key, path } = inputs;
  const restoreKeys = String(w['restore-keys'] ?? '')
    .split('\n')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  const same = store.entries.filter((e) => e.path === path);
  const newest = (pick: (k: string) => boolean) => same.filter((e) => pick(e.key)).at(-1);
  let hit = newest((k) => k === key);
  const exact = hit !== undefined;
  for (const prefix of restoreKeys) hit ??= newest((k) => k.startsWith(prefix));
  let stdout: string;
  if (hit) {
    await rm(join(workspace, path), { recursive: true, force: true });
    await cp(hit.dir, join(workspace, path), { recursive: true });
    stdout = `Cache restored from key: ${hit.key}\n`;
  } else {
    stdout = `Cache not found for input keys: ${[key, ...restoreKeys].join(', ')}\n`;
  }
  await writeFile(outputFile, `cache-hit=${exact}\ncache-primary-key=${key}\ncache-matched-key=${hit?.key ?? ''}\n`);
  return { code: 0, stdout, stderr: '', exact };
}

/** The save: `path` under `key`, unless an entry of that key exists (entries are immutable) or `path` does not. Never fails the job. */
async function cacheSave(
  w: Record<string, unknown>,
  workspace: string,
  o: RunnerOptions,
  run: WorkflowRun,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const inputs = cacheInputs(w, o, ['restore-keys']);
  if ('error' in inputs) return { code: 1, stdout: '', stderr: inputs.error };
  const { store, key, path } = inputs;
  if (store.entries.some((e) => e.key === key && e.path === path))
    return { code: 0, stdout: `Failed to save: Unable to reserve cache with key ${key}, another job may be creating this cache.\n`, stderr: '' };
  try {
    await stat(join(workspace, path));
  } catch {
    return {
      code: 0,
      stdout: 'Warning: Path Validation Error: Path(s) specified in the action for caching do(es) not exist, hence no cache is being saved.\n',
      stderr: '',
    };
  }
  const dir = join(store.dir, `entry-${store.entries.length + 1}`);
  await cp(join(workspace, path), dir, { recursive: true });
  store.entries.push({ key, path, dir, runId: run.runId });
  return { code: 0, stdout: `Cache saved with key: ${key}\n`, stderr: '' };
}

async function useAction(
  step: Step,
  w: Record<string, unknown>,
  workspace: string,
  o: RunnerOptions,
  run: WorkflowRun,
  outputFile: string,
  addPost: (p: PostStep) => void,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [action] = (step.uses ?? '').split('@');
  const ok = (stdout = '') => ({ code: 0, stdout, stderr: '' });
  switch (action) {
    case 'actions/checkout': {
      // As actions/checkout@v4 does it: no `git clone` (so no refs/remotes/origin/HEAD), the token
      // stored as an extraheader, one fetch of the triggering commit at the given depth (0: every
      // branch and tag), then a local branch at that commit.
      const depth = Number(w['fetch-depth'] ?? 1);
      await mkdir(workspace, { recursive: true });
      const git = (...args: string[]) => gitAsync(workspace, ...args);
      await git('init', '-q');
      await git('remote', 'add', 'origin', o.cloneUrl);
      await git('config', '--local', `http.${o.extraHeader.url}.extraheader`, o.extraHeader.value);
      const sha = (await git('ls-remote', 'origin', `refs/heads/${o.ref}`)).split('\t')[0]!;
      if (depth > 0) await git('fetch', '-q', '--no-tags', '--prune', `--depth=${depth}`, 'origin', `+${sha}:refs/remotes/origin/${o.ref}`);
      else await git('fetch', '-q', '--prune', 'origin', '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*');
      await git('checkout', '-q', '--force', '-B', o.ref, `refs/remotes/origin/${o.ref}`);
      if (w['persist-credentials'] === false) await git('config', '--local', '--unset-all', `http.${o.extraHeader.url}.extraheader`);
      return ok();
    }
    case 'actions/setup-node':
      return ok();
    case 'actions/cache':
      return actionsCache(w, workspace, o, run, outputFile, addPost);
    case 'actions/cache/restore':
      return cacheRestore(w, workspace, o, outputFile);
    case 'actions/cache/save': {
      if (w['restore-keys'] !== undefined) throw new Error('actions/cache/save takes no restore-keys');
      return cacheSave(w, workspace, o, run);
    }
    case 'actions/upload-artifact': {
      const name = String(w['name'] ?? 'artifact');
      const dest = join(o.root, 'artifacts', name);
      await mkdir(dest, { recursive: true });
      const paths = String(w['path'] ?? '')
        .split('\n')
        .map((p) => p.trim())
        .filter((p) => p !== '');
      let found = 0;
      for (const p of paths) {
        try {
          await cp(join(workspace, p), join(dest, p), { recursive: true });
          found += 1;
        } catch {
          // A missing path: counted below against if-no-files-found.
        }
      }
      if (found === 0 && w['if-no-files-found'] === 'error')
        return { code: 1, stdout: '', stderr: `No files were found with the provided path: ${paths.join(', ')}` };
      run.artifacts.set(name, dest);
      return ok();
    }
    case 'actions/download-artifact': {
      const isMatch = picomatch(String(w['pattern'] ?? '*'));
      const target = join(workspace, String(w['path'] ?? '.'));
      for (const [name, dir] of run.artifacts) {
        if (!isMatch(name)) continue;
        await cp(dir, w['merge-multiple'] === true ? target : join(target, name), { recursive: true });
      }
      return ok();
    }
    default:
      throw new Error(`the workflow harness does not model ${step.uses}`);
  }
}

/** The `if:` conditions the example uses; anything else throws rather than being guessed. */
function condition(expr: string | undefined, s: { failed: boolean; success: boolean }): boolean {
  if (expr === undefined) return s.success;
  const e = expr
    .trim()
    .replace(/^\$\{\{\s*([^]*?)\s*\}\}$/, '$1')
    .replace(/\s+/g, '');
  const known: Record<string, boolean> = {
    'success()': s.success,
    'failure()': s.failed,
    'always()': true,
    'cancelled()': false,
    '!cancelled()': true,
  };
  if (!(e in known)) throw new Error(`the workflow harness cannot evaluate if: ${expr}`);
  return known[e]!;
}

/** `${{ matrix.x }}`, `${{ secrets.X }}` and `${{ github.run_id }}` replaced; any other expression throws. */
function subst<T>(value: T, ctx: Readonly<Record<string, string>>): T {
  if (typeof value === 'string') {
    return value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, name: string) => {
      if (!(name in ctx)) throw new Error(`the workflow harness has no value for \${{ ${name} }}`);
      return ctx[name]!;
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v) => subst(v, ctx)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, subst(v, ctx)])) as T;
  }
  return value;
}

function expandMatrix(matrix: Record<string, unknown[]> | undefined): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const [key, values] of Object.entries(matrix ?? {})) {
    out = out.flatMap((m) => values.map((v) => ({ ...m, [key]: String(v) })));
  }
  return out;
}

/** Jobs after the jobs they need (the example's graph is small; a cycle throws). */
function ordered(jobs: Record<string, Job>): [string, Job][] {
  const out: [string, Job][] = [];
  const seen = new Set<string>();
  const visit = (id: string, path: string[]) => {
    if (seen.has(id)) return;
    if (path.includes(id)) throw new Error(`job cycle: ${[...path, id].join(' → ')}`);
    const job = jobs[id];
    if (!job) throw new Error(`unknown job ${id}`);
    for (const n of typeof job.needs === 'string' ? [job.needs] : (job.needs ?? [])) visit(n, [...path, id]);
    seen.add(id);
    out.push([id, job]);
  };
  for (const id of Object.keys(jobs)) visit(id, []);
  return out;
}

/** GITHUB_OUTPUT / GITHUB_ENV syntax: `k=v` lines and `k<<DELIM` … `DELIM` blocks. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]!);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`unclosed ${heredoc[1]} block`);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = lines[i]!.indexOf('=');
    if (eq > 0) out[lines[i]!.slice(0, eq)] = lines[i]!.slice(eq + 1);
  }
  return out;
}

/** What a fresh runner's shell has: git shut off from this machine's config, nothing of the test's own env. */
function baseEnv(): Record<string, string> {
  const g = gitEnv();
  const keep = ['HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL'];
  return Object.fromEntries(keep.filter((k) => g[k] !== undefined).map((k) => [k, g[k]!]));
}

function exec(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Every file under `dir`, relative to it. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  await walk(dir);
  return out.sort();
}

/**
 * The runner's preinstalled tools, standing in for the network: `npm ci` installs this checkout's
 * scion as the project's dependency would be (node_modules/.bin/scion, run from the sources through
 * tsx); `npx` refuses, because on a real runner it could download an unrelated package named scion.
 */
export async function runnerTools(dir: string): Promise<string> {
  const bin = join(dir, 'tools');
  await mkdir(bin, { recursive: true });
  const scion = `#!/bin/sh\nexec ${SCION_COMMAND.map((a) => `'${a}'`).join(' ')} "$@"\n`;
  await writeFile(join(bin, 'scion-installed'), scion);
  await writeFile(
    join(bin, 'npm'),
    `#!/bin/sh
if [ "$1" = ci ]; then
  mkdir -p node_modules/.bin && cp ${join(bin, 'scion-installed')} node_modules/.bin/scion && chmod +x node_modules/.bin/scion
  echo "added 1 package (scion)"
  exit 0
fi
echo "workflow test: npm $* is not modelled" >&2
exit 1
`,
  );
  await writeFile(join(bin, 'npx'), '#!/bin/sh\necho "workflow test: npx would fetch $1 from the registry" >&2\nexit 1\n');
  await Promise.all(['npm', 'npx', 'scion-installed'].map((f) => chmod(join(bin, f), 0o755)));
  return bin;
}
