// A GitHub API call that failed (after any retries). The message is one sentence a user can act on.

export interface PullRequestResult {
  readonly branch: string;
  readonly number: number;
  readonly url: string;
  readonly action: 'created' | 'updated';
}

export class GitHubApiError extends Error {
  /** HTTP status, or null when GitHub could not be reached. */
  readonly status: number | null;
  /** Pull requests already created/updated before the failure: they stay as they are. */
  readonly completed: readonly PullRequestResult[];

  constructor(message: string, status: number | null, completed: readonly PullRequestResult[] = []) {
    super(message);
    this.name = 'GitHubApiError';
    this.status = status;
    this.completed = completed;
  }
}
