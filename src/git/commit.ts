// Commit and tag objects: read, write, and the tree a commit points at.
import { GitError } from './errors.js';
import { isOid } from './hash.js';
import { formatIdentity, parseIdentity, type FullIdentity, type Identity } from './identity-format.js';
import { repoState, type Repo } from './repo.js';

export interface CommitInfo {
  tree: string;
  parents: string[];
  /** As stored: usually ends with a newline. */
  message: string;
  author: FullIdentity;
  committer: FullIdentity;
}

export function parseCommit(data: Buffer, oid: string): CommitInfo {
  const text = data.toString('utf8');
  const blank = text.indexOf('\n\n');
  const head = blank < 0 ? text : text.slice(0, blank);
  const message = blank < 0 ? '' : text.slice(blank + 2);
  let tree = '';
  const parents: string[] = [];
  let author: FullIdentity | null = null;
  let committer: FullIdentity | null = null;
  for (const line of head.split('\n')) {
    // Continuation lines (' ' prefix) belong to multi-line headers such as gpgsig.
    if (line.startsWith(' ')) continue;
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseIdentity(value);
    else if (key === 'committer') committer = parseIdentity(value);
  }
  if (!isOid(tree) || !author || !committer) throw new GitError('corrupt', `Commit ${oid} is damaged; run \`git fsck\`.`, { oid });
  return { tree, parents, message, author, committer };
}

/** An annotated tag's target, or null when the data is not a tag. */
export function tagTarget(data: Buffer): string | null {
  const m = /^object ([0-9a-f]{40})$/m.exec(data.toString('utf8', 0, Math.min(data.length, 200)));
  return m ? (m[1] as string) : null;
}

export async function readCommit(repo: Repo, sha: string): Promise<CommitInfo> {
  return readCommitSync(repo, sha);
}

export function readCommitSync(repo: Repo, sha: string): CommitInfo {
  const obj = repoState(repo).store.read(sha);
  if (obj.type !== 'commit') throw new GitError('invalid-argument', `${sha} is a ${obj.type}, not a commit.`, { oid: sha });
  return parseCommit(obj.data, sha);
}

/** The tree oid of a commit (a read: not git's commit-tree, which makes a commit from a tree). */
export async function treeOfCommit(repo: Repo, commit: string): Promise<string> {
  return readCommitSync(repo, commit).tree;
}

export interface NewCommit {
  tree: string;
  parents: string[];
  message: string;
  author: Identity;
  /** Defaults to the author. */
  committer?: Identity;
}

export async function writeCommit(repo: Repo, c: NewCommit): Promise<string> {
  const store = repoState(repo).store;
  const bytes = commitBytes(c);
  // As `git commit-tree` does: never write a commit that points at objects the repository lacks.
  for (const oid of [c.tree, ...c.parents]) {
    if (!store.has(oid)) throw new GitError('missing-object', `Cannot commit: object ${oid} is not in the repository.`, { oid });
  }
  return store.write('commit', bytes);
}

/** The commit object's content; `hashObject('commit', …)` of it is the oid (dry run). */
export function commitBytes(c: NewCommit, now: Date = new Date()): Buffer {
  for (const oid of [c.tree, ...c.parents]) {
    if (!isOid(oid)) throw new GitError('invalid-argument', `"${oid}" is not a full object id.`, { oid });
  }
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${formatIdentity(c.author, now)}`, `committer ${formatIdentity(c.committer ?? c.author, now)}`);
  const message = c.message.endsWith('\n') ? c.message : `${c.message}\n`;
  return Buffer.from(`${lines.join('\n')}\n\n${message}`, 'utf8');
}
