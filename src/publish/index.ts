// Publishing as a library: pushing a run's branches and publishing their pull requests (one repository,
// or each repository of a campaign), the status of those pull requests, and pruning finished branches.
export { publishRun, type PublishRunOptions, type PublishRunResult } from './publish-run.js';
export {
  publishRepository,
  resolveTarget,
  checkPublishSettings,
  type PublishSettings,
  type RepositoryTarget,
  type TargetSource,
  type TargetProblems,
} from './repository.js';
export { publishCampaign, pushTargetForUrl, type CampaignRepoRef, type PublishCampaignOptions, type PublishCampaignResult } from './campaign.js';
export { pushReport, resolvePushTarget, type PushOptions, type PushTarget } from './push.js';
export { publishPullRequests, type PullRequestOptions, type PullRequestsResult } from './pulls.js';
export { describeJob, changeFingerprint, DEFAULT_PR_SETTINGS, type PrSettings, type PullText } from './describe.js';
export { pullRequestStatus, renderStatusTable, type StatusJob, type StatusRow, type StatusOptions, type StatusState } from './status.js';
export { pruneBranches, type PruneEntry, type PruneOptions } from './prune.js';
