// The one interface publishing talks to a forge through (GitHub, GitLab): pull requests as records,
// each call one sentence of English when it fails (a `host` ScionError).
import type { WriteBudgets } from './budget.js';
import type { ReadCache } from './etags.js';
import type { HostKind } from './remote.js';

export type PullState = 'open' | 'closed' | 'merged';
export type ChecksState = 'success' | 'failure' | 'pending' | 'none';
export type ReviewState = 'approved' | 'changes-requested' | 'required' | 'none';
export type MergeMethod = 'squash' | 'merge' | 'rebase';
export const MERGE_METHODS: readonly MergeMethod[] = ['squash', 'merge', 'rebase'];

/** A pull request (GitHub) or merge request (GitLab) as the host reports it. */
export interface HostPull {
  readonly number: number;
  readonly url: string;
  readonly state: PullState;
  readonly draft: boolean;
  /** The commit the pull request's branch held when the host last looked. */
  readonly headSha: string | null;
  readonly base: string;
  readonly body: string;
  /** GitHub's GraphQL node id (auto-merge); GitLab: the global id. */
  readonly nodeId: string;
  /** When anything last happened on it (ISO 8601); null when the host does not say. */
  readonly updatedAt?: string | null;
  /** Reviews requested and not given yet: user names, `team:slug` for a team. */
  readonly reviewers?: readonly string[];
}

/** An issue as scion keeps one (the tracking issue of a campaign). */
export interface HostIssue {
  readonly number: number;
  readonly url: string;
  readonly body: string;
}

export interface NewPull {
  readonly branch: string;
  readonly base: string;
  readonly title: string;
  readonly body: string;
  readonly draft: boolean;
}

/** Who and what to add to a pull request after it is created or updated. */
export interface PullExtras {
  readonly labels: readonly string[];
  /** User names; `team:slug` names a team. */
  readonly reviewers: readonly string[];
  readonly assignees: readonly string[];
  /**
   * Reviewers from CODEOWNERS (a piece of a job split by owner), written as `reviewers` are. GitHub asks
   * them as any reviewer; GitLab leaves out a name it knows as no user (a CODEOWNERS owner may be a group).
   */
  readonly owners?: readonly string[];
}

export interface Host {
  readonly kind: HostKind;
  /** "owner/repo" (GitHub) or the project path (GitLab), for messages. */
  readonly label: string;
  defaultBranch(): Promise<string>;
  /** The open pull request of `branch`, else the most recent one in any state; null when none. */
  findPull(branch: string): Promise<HostPull | null>;
  createPull(p: NewPull): Promise<HostPull>;
  updatePull(pull: HostPull, p: { title: string; body: string }): Promise<HostPull>;
  addExtras(pull: HostPull, extras: PullExtras): Promise<void>;
  enableAutoMerge(pull: HostPull, method: MergeMethod): Promise<void>;
  comment(pull: HostPull, text: string): Promise<void>;
  closePull(pull: HostPull): Promise<void>;
  checks(pull: HostPull): Promise<ChecksState>;
  review(pull: HostPull): Promise<ReviewState>;
  /** The text of every comment on the pull request, oldest first. */
  comments(pull: HostPull): Promise<string[]>;
  /** A draft marked ready for review. */
  markReady(pull: HostPull): Promise<void>;
  merge(pull: HostPull, method: MergeMethod): Promise<void>;
  /** The issue whose body holds `marker` (open or closed); `number` reads that one directly. null: none. */
  findIssue(marker: string, number?: number): Promise<HostIssue | null>;
  createIssue(title: string, body: string): Promise<HostIssue>;
  editIssue(issue: HostIssue, body: string): Promise<HostIssue>;
  /** The longest issue body the host accepts, in characters. */
  readonly issueLimit: number;
}

/** A host call that failed after any retries: the ScionError of kind `host` (its message one sentence a user can act on). */
export { HostError } from '../errors.js';

/** Pacing and retry limits every host applies to its requests. */
export interface RequestLimits {
  /** Retries of one call after a rate limit or a 5xx. Default 3. */
  readonly maxRetries?: number;
  /** Longest wait scion accepts before one retry; a host asking for more ends the call. Default 120,000. */
  readonly maxRetryWaitMs?: number;
  /** Unit of the backoff between retries of a 5xx or a network failure (1, 4, 9 × this). Default 1000. */
  readonly backoffMs?: number;
  /** A request that gets no answer within this fails. Default 60,000. */
  readonly timeoutMs?: number;
  /** Makes each wait before a retry (a test passes one that records it). Default: a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The write budgets every write is spent from. Default: the process's, at 80 a minute and 500 an hour. */
  readonly writes?: WriteBudgets;
  /** Conditional reads (ETags). Default: none, every read in full. */
  readonly reads?: ReadCache;
}
