// The git layer: objects, trees, commits, refs (lock + compare-and-swap) and linked worktrees, read
// and written in git's own on-disk formats. The rest of scion reaches git only through these names.
export { openRepo, closeRepo, repoRefusal, type Repo, type OpenRepoOptions } from './repo.js';
export { resolveCommit } from './resolve.js';
export { listTree, type TreeEntry, type ListTreeOptions } from './list-tree.js';
export { readBlob, writeBlob } from './blob.js';
export { hashBlob, hashObject, EMPTY_TREE, ZERO_OID, isOid, type ObjectType } from './hash.js';
export { ObjectBatch } from './object-batch.js';
export { writeTreeWith, type TreeChange, type DryRunObjects } from './write-tree.js';
export { treeOfCommit, readCommit, writeCommit, commitBytes, type CommitInfo, type NewCommit } from './commit.js';
export type { Identity, FullIdentity } from './identity-format.js';
export { readRef, isValidRefName } from './refs.js';
export { updateRef, type UpdateRefOptions } from './update-ref.js';
export { sweepRefLocks } from './ref-lock.js';
export { currentOwner, ownerAlive, ownerTag, parseOwnerTag, processStart, type LockOwner } from './process-owner.js';
export { gitIdentity, type IdentityOptions } from './identity.js';
export { commitSignatures, type Signatures, type SignatureOptions } from './signature.js';
export { parseGitDate, type GitDate } from './git-date.js';
export { listWorktrees, branchCheckedOut, type Worktree, type WorktreeInfo } from './worktree-admin.js';
export { addWorktree, type AddWorktreeOptions } from './worktree-add.js';
export { worktreeChanges, type WorktreeChange } from './worktree-changes.js';
export { worktreeCleaner, type CleanFilter } from './worktree-clean.js';
export { setWorktreeHead, type WorktreeHead } from './worktree-head.js';
export { removeWorktree } from './worktree-remove.js';
export { GitError, refusalToGitError, isEnvironmentErrno, onDisk, type GitErrorCode } from './errors.js';
export { guardedHttp, TransferLimitError, type OriginCredential, type RemoteAccess } from './transport.js';
export { remoteUrl, configuredHeaders, remoteHeadBranch, listRemoteBranches, fetchBranch, pushCommit, setTrackingRef, type TransportFailure, type TransportResult, type PushCommitOptions } from './push.js';
