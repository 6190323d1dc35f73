// Every rule about the flags of every command, in one module: each command's check runs inside yargs'
// parse (index.ts attaches it), so a mistake ends the parse before any command module is loaded and
// before anything is pushed. A new rule is a line in its command's check below; the flags themselves
// are tables in run-options.ts and command-options.ts.
import { usageError, type ScionError } from '../../api/errors.js';
import { BULK_STATES, MERGE_METHODS } from '../../api/choices.js';
import { CAMPAIGN_SOURCES } from './run-options.js';

/**
 * `scion pr`: --pr-interval is a pause; at most one bulk operation (--comment, --close, --ready,
 * --merge), each with a value it can use; the flags that select pull requests (--job, --state, --stale,
 * several --repo) only beside one.
 */
export function checkPrFlags(a: Record<string, unknown>): true {
  checkLifecycleFlags(a);
  const comment = a['comment'];
  if (typeof comment === 'string' && comment.trim() === '') {
    throw flagError('comment', '--comment needs the text to post (for example --comment "Please review: this closes in a week").');
  }
  const merge = a['merge'];
  if (typeof merge === 'string' && merge !== '' && !(MERGE_METHODS as readonly string[]).includes(merge)) {
    throw flagError('merge', `--merge ${merge} is not a merge method; use --merge squash, --merge merge or --merge rebase.`);
  }
  const actions = BULK_ACTIONS.filter((n) => a[n] !== undefined && a[n] !== false);
  if (actions.length > 1) {
    throw flagError(actions[1]!, '--comment, --close, --ready and --merge each act on every selected pull request; choose one per command.');
  }
  if (actions.length === 0) {
    const selectors = (['job', 'state', 'stale'] as const).filter((n) => (Array.isArray(a[n]) ? (a[n] as unknown[]).length > 0 : a[n] !== undefined));
    if (selectors.length > 0) {
      throw flagError(
        selectors[0]!,
        '--job, --state and --stale select the pull requests of a bulk operation; add --comment TEXT, --close, --ready or --merge.',
      );
    }
    if (Array.isArray(a['repo'])) {
      throw flagError('repo', '--repo names the repository folder once (several --repo are globs of a bulk operation: --comment, --close, --ready, --merge).');
    }
  }
  const states = a['state'];
  for (const s of Array.isArray(states) ? states.map(String) : []) {
    if (!(BULK_STATES as readonly string[]).includes(s)) throw flagError('state', `--state ${s} is not one of ${BULK_STATES.join(', ')}.`);
  }
  checkStale(a);
  return true;
}

/** The flags of `scion pr` that each name one bulk operation. */
const BULK_ACTIONS = ['comment', 'close', 'ready', 'merge'] as const;

/** `scion track`: --stale is a number of days. */
export function checkTrackFlags(a: Record<string, unknown>): true {
  checkStale(a);
  return true;
}

/** --stale (of `track` and of `pr`'s bulk operations): a whole number of days, 1 or more. */
function checkStale(a: Record<string, unknown>): void {
  const d = a['stale'];
  if (d !== undefined && !(typeof d === 'number' && Number.isInteger(d) && d >= 1)) {
    throw flagError('stale', `--stale${shown(d)} must be a whole number of days, 1 or more (for example --stale 14).`);
  }
}

/** The rules of the flags `run --pr` and `scion pr` share: checked before anything is pushed. */
function checkLifecycleFlags(a: Record<string, unknown>): void {
  const v = a['pr-interval'];
  if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
    throw flagError('pr-interval', `--pr-interval ${String(v)} must be a whole number of milliseconds, 0 or more.`);
  }
}

/** A flag mistake found by a check: a usage error naming the flag (exit 2), raised inside yargs' parse. */
function flagError(flag: string, message: string): ScionError {
  return usageError(message, [], flag);
}

/**
 * Everything about the flags of `run` and `plan` that can be known without the repository, checked
 * inside yargs so a mistake ends the parse before any command handler runs: usage is checked before
 * anything runs. Throws a usage error naming the flag, whose message is the one sentence the user reads.
 */
export function checkRunFlags(a: Record<string, unknown>): true {
  for (const name of [
    'repo',
    'base',
    'report',
    'pr-body',
    'html',
    'shard',
    'pr-base',
    'label',
    'repos',
    'github-org',
    'topic',
    'github-search',
    'gitlab-group',
    'cache-dir',
  ] as const) {
    const v = a[name];
    const values = Array.isArray(v) ? v : [v];
    if (values.some((x) => x === '')) throw flagError(name, `--${name} needs a value (for example --${name} ${EXAMPLE[name]}).`);
  }
  const jobs = a['job'];
  if (Array.isArray(jobs) && jobs.some((j) => String(j).trim() === ''))
    throw flagError('job', '--job needs a job name or glob (for example --job web --job "pkg-*").');
  if (a['shard'] !== undefined && parseShard(String(a['shard'])) === null) {
    throw flagError(
      'shard',
      `--shard ${String(a['shard'])} is not I/N or auto/N with 1 <= I <= N (for example --shard 2/4, or --shard auto/4 in a Kubernetes indexed Job).`,
    );
  }
  const c = a['concurrency'];
  if (c !== undefined && !(typeof c === 'number' && Number.isInteger(c) && c >= 1)) {
    const shown = typeof c === 'number' && !Number.isNaN(c) ? ` ${c}` : '';
    throw flagError('concurrency', `--concurrency${shown} must be a whole number of at least 1 (for example --concurrency 4).`);
  }
  checkCampaignFlags(a);
  checkLifecycleFlags(a);
  checkCostFlags(a);
  if (a['patch'] === true && a['stat'] === true) throw flagError('patch', '--patch and --stat print the plan in two different shapes; choose one.');
  if ((a['patch'] === true || a['stat'] === true) && a['json'] === true) {
    throw flagError(
      a['patch'] === true ? 'patch' : 'stat',
      `--${a['patch'] === true ? 'patch' : 'stat'} and --json both print to stdout; choose one (--report FILE writes the JSON beside it).`,
    );
  }
  // Flags that only say how another flag works.
  if (a['push'] === undefined) {
    if (a['push-failed'] === true) throw flagError('push-failed', '--push-failed only says which branches --push pushes; add --push [REMOTE].');
    if (a['pr'] === true) throw flagError('pr', '--pr opens pull requests for the branches --push pushed; add --push [REMOTE].');
  } else if (a['dry-run'] === true) {
    throw flagError('push', '--push cannot go with plan or --dry-run: a dry run writes no branch to push; drop one of them.');
  }
  if (a['pr'] !== true) {
    if (a['draft'] === true) throw flagError('draft', '--draft says how --pr opens pull requests; add --push --pr, or drop --draft.');
    if (a['label'] !== undefined) throw flagError('label', '--label labels the pull requests --pr opens; add --push --pr, or drop --label.');
    if (a['pr-base'] !== undefined) throw flagError('pr-base', '--pr-base says where the pull requests of --pr merge; add --push --pr, or drop --pr-base.');
  }
  return true;
}

/** --sample N is a whole number of jobs; --max-cost a positive amount of US dollars. */
function checkCostFlags(a: Record<string, unknown>): void {
  const n = a['sample'];
  if (n !== undefined && !(typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
    throw flagError('sample', `--sample${shown(n)} must be a whole number of jobs, at least 1 (for example --sample 20).`);
  }
  if (n !== undefined && a['shard'] !== undefined) {
    throw flagError(
      'sample',
      '--sample picks jobs over the whole expansion and --shard splits it for a sweep; choose one (tune on a sample first, then shard the full run).',
    );
  }
  const usd = a['max-cost'];
  if (usd !== undefined && !(typeof usd === 'number' && Number.isFinite(usd) && usd > 0)) {
    throw flagError('max-cost', `--max-cost${shown(usd)} must be an amount of US dollars above 0 (for example --max-cost 25).`);
  }
}

/** A numeric flag's value as the message repeats it (nothing for a value yargs could not read as a number). */
const shown = (v: unknown): string => (typeof v === 'number' && !Number.isNaN(v) ? ` ${v}` : '');

/** A campaign's repositories come from one flag, never beside --repo; the narrowing flags need theirs. */
function checkCampaignFlags(a: Record<string, unknown>): void {
  const given = CAMPAIGN_SOURCES.filter((n) => a[n] !== undefined);
  if (given.length > 1) {
    throw flagError(given[1]!, `${given.map((n) => `--${n}`).join(' and ')} each name the repositories of a campaign; choose one.`);
  }
  const source = given[0];
  if (source !== undefined && a['repo'] !== undefined) {
    throw flagError('repo', `--repo names one repository and --${source} the repositories of a campaign; choose one (a local path can be a line of --repos).`);
  }
  if (a['github-org'] === undefined) {
    for (const n of ['topic', 'include-forks', 'include-archived'] as const) {
      if (a[n] !== undefined && a[n] !== false) throw flagError(n, `--${n} narrows the repositories of --github-org ORG; add --github-org, or drop --${n}.`);
    }
  }
  if (source === undefined && a['cache-dir'] !== undefined) {
    throw flagError(
      'cache-dir',
      '--cache-dir says where a campaign keeps its clones; add --repos FILE (or --github-org, --github-search, --gitlab-group), or drop --cache-dir.',
    );
  }
}

const EXAMPLE: Readonly<Record<string, string>> = {
  repos: 'repos.txt',
  'github-org': 'acme',
  topic: 'codemod',
  'github-search': '"org:acme language:typescript"',
  'gitlab-group': 'acme/platform',
  'cache-dir': '~/.cache/scion/repos',
  repo: '../app',
  base: 'main',
  report: 'scion-report.json',
  'pr-body': 'pr.md',
  html: 'report.html',
  shard: '2/4',
  'pr-base': 'main',
  label: 'codemod',
};

/** `--shard 2/4` → { index: 2, count: 4 }; `auto/4` → { index: 'auto', count: 4 }; null when malformed. */
export function parseShard(s: string): { index: number | 'auto'; count: number } | null {
  const m = /^(\d+|auto)\/(\d+)$/.exec(s.trim());
  if (!m) return null;
  const count = Number(m[2]);
  if (m[1] === 'auto') return count >= 1 ? { index: 'auto', count } : null;
  const index = Number(m[1]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : null;
}

/**
 * The shard this process runs: I/N as given, or for `auto/N` the index its scheduler gives it:
 * JOB_COMPLETION_INDEX (a Kubernetes indexed Job's pod, 0-based) or SCION_SHARD (1-based, any CI).
 * A usage error when neither is set or the index is outside 1..N.
 */
export function resolveShard(spec: string, env: Readonly<Record<string, string | undefined>>): { index: number; count: number } {
  const parsed = parseShard(spec);
  if (parsed === null) throw flagError('shard', `--shard ${spec} is not I/N or auto/N with 1 <= I <= N (for example --shard 2/4 or --shard auto/4).`);
  if (parsed.index !== 'auto') return { index: parsed.index, count: parsed.count };
  const n = parsed.count;
  const k8s = env['JOB_COMPLETION_INDEX'];
  const own = env['SCION_SHARD'];
  const [variable, text, offset] =
    k8s !== undefined && k8s !== ''
      ? (['JOB_COMPLETION_INDEX', k8s, 1] as const)
      : own !== undefined && own !== ''
        ? (['SCION_SHARD', own, 0] as const)
        : ([null, '', 0] as const);
  if (variable === null) {
    throw flagError(
      'shard',
      `--shard auto/${n} takes the shard from JOB_COMPLETION_INDEX (a Kubernetes indexed Job, 0-based) or SCION_SHARD (1 to ` +
        `${n}); neither is set, so set one or give --shard I/${n}.`,
    );
  }
  const index = /^\d+$/.test(text.trim()) ? Number(text.trim()) + offset : NaN;
  if (!(index >= 1 && index <= n)) {
    const range = variable === 'JOB_COMPLETION_INDEX' ? `0 to ${n - 1}` : `1 to ${n}`;
    throw flagError('shard', `${variable} is ${JSON.stringify(text)}, not a shard of --shard auto/${n} (${range}); run ${n} shards, or fix ${variable}.`);
  }
  return { index, count: n };
}

/** `--label a --label b` (yargs gives a string for one, an array for several). */
export function labelsOf(v: string | readonly string[] | undefined): string[] {
  return (v === undefined ? [] : typeof v === 'string' ? [v] : [...v]).map((l) => l.trim()).filter((l) => l !== '');
}
