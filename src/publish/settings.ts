// What publishing is asked to do (push, pull requests, their base, labels, pacing) and the check of
// those settings as a caller gives them: apart from the publishing path itself, so a run checks its
// options without loading hosts, pushes and pull requests.
import { usageError } from '../errors.js';
import type { HostOptions } from '../host/open.js';
import type { Env } from '../host/remote.js';
import type { Recipe } from '../recipe/index.js';

/** What to publish and how: the same for one repository and for each repository of a campaign. */
export interface PublishSettings {
  /** Tokens and host URLs (GITHUB_TOKEN, GITLAB_TOKEN, GITHUB_API_URL, …). */
  readonly env: Env;
  /** Push the branches first (force-with-lease), or not at all. */
  readonly push: false | { readonly force: boolean; readonly pushFailed: boolean };
  /** Publish pull requests (after the push, when there is one). */
  readonly pullRequests: boolean;
  /** The recipes of the run: their `pr` blocks apply, and their step counts place push and PR errors. */
  readonly recipes: readonly Recipe[];
  /** Added to every recipe's `pr` block (what --draft and --label do). */
  readonly extra?: { readonly draft?: boolean; readonly labels?: readonly string[] };
  /** The branch pull requests merge into. Default: the repository's base branch, else the remote's default branch. */
  readonly base?: string;
  readonly reopen: boolean;
  /** Pause between pull requests, in milliseconds: a whole number, 0 or more. */
  readonly intervalMs: number;
  /** Makes that pause (a test passes one that records it). */
  readonly pause?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly hostOptions?: HostOptions;
  /** One line per branch pushed and pull request published. */
  readonly say?: (line: string) => void;
  /** Notes that are not results ("r.json records no push"). */
  readonly note?: (line: string) => void;
  /** Where the report came from, for those notes. */
  readonly source?: string;
  /** Once it fired, no push and no request starts; the jobs it caught end `interrupted`. */
  readonly signal?: AbortSignal;
}

/**
 * Options of publishing as a caller gives them, checked completely before anything is pushed. Messages
 * name the options as the caller wrote them: `options` is their prefix (`publish.` in a run's options).
 */
export function checkPublishSettings(s: Pick<PublishSettings, 'intervalMs' | 'base' | 'extra'>, options = ''): void {
  const option = (name: string) => `The \`${options}${name}\` option`;
  if (!(Number.isInteger(s.intervalMs) && s.intervalMs >= 0)) {
    throw usageError(`${option('intervalMs')} (${s.intervalMs}) must be a whole number of milliseconds, 0 or more.`, [], 'pr-interval');
  }
  if (s.base !== undefined && s.base.trim() === '') throw usageError(`${option('base')} needs a branch name (for example main).`, [], 'pr-base');
  for (const l of s.extra?.labels ?? []) {
    if (l.trim() === '') throw usageError(`${option('labels')} needs label names (for example codemod), not an empty one.`, [], 'label');
  }
}
