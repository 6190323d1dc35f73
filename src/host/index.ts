// The host layer: which forge serves a repository (GitHub or GitLab), its API client, and the one
// credential rule that decides which token goes where. Publishing and campaigns use hosts through
// these names; neither reaches into the other for them.
export { openHost, hostForUrl, hostKindOfUrl, checkApiUrl, type HostOptions } from './open.js';
export { GitHubHost, type GitHubOptions } from './github.js';
export { GitLabHost, type GitLabOptions } from './gitlab.js';
export { parseRemoteLocation, parseRemoteUrl, hostKindOf, remoteAccess, shownUrl } from './remote.js';
export type { Env, HostKind, RemoteLocation, RepoRef } from './remote.js';
export { credentialAdvice, forge, forgeTokens, githubForge, gitlabForge, onForge, type Credential, type Forge } from './credentials.js';
export {
  HostError,
  type Host,
  type HostPull,
  type HostIssue,
  type NewPull,
  type PullExtras,
  type ChecksState,
  type ReviewState,
  type MergeMethod,
  type PullState,
  type RequestLimits,
} from './types.js';
