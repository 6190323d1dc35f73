// A job's change divided by owner: after the steps and verify, the changed files become pieces, one per
// set of owners in the CODEOWNERS file of the job's base commit (so a recipe that edits CODEOWNERS does
// not change whose review it needs). Each piece is committed on its own branch, `<job branch>/<piece>`,
// under its own job name, `<job>/<piece>`, so the rerun rule, publishing, status and pruning treat it
// as any job; the job's own branch is not written. A piece an earlier run left that this run does not
// make (its files were merged, or moved to other owners) is reported `empty`, so its pull request closes.
import { listRefs, readCommit, readRef, type Repo } from '../git/index.js';
import type { JobSpec, Recipe } from '../recipe/index.js';
import type { OwnerRuleReport, SplitReport } from '../model/types.js';
import { codeownersInTree, defaultDialect, splitByOwners, type Codeowners, type Dialect, type Piece } from '../owners/index.js';
import { parseTrailers } from '../branch/trailers.js';
import type { Changes } from '../workspace/types.js';
import { planCommits } from './commit-plan.js';
import { fixCommit } from './fix-commit.js';
import { commitJob, type CommitInput, type Committed } from './job-commit.js';
import { compareCodeUnits } from '../util/compare.js';

export type SplitSettings = NonNullable<Recipe['split']>;

export interface SplitInput extends Omit<CommitInput, 'plan' | 'job'> {
  readonly job: JobSpec;
  readonly split: SplitSettings;
  /** What the steps changed, and what the fix rounds changed on top (committed as the group `fix`). */
  readonly beforeFix: Changes;
  readonly fixChanges: Changes;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface PieceResult {
  /** The piece's job: `<job>/<piece>` on `<job branch>/<piece>`. */
  readonly job: JobSpec;
  /** Paths of the piece (empty for a piece an earlier run left). */
  readonly files: ReadonlySet<string>;
  readonly owners: readonly string[];
  readonly split: SplitReport;
  readonly committed: Committed;
}

export interface SplitResult {
  readonly pieces: readonly PieceResult[];
  readonly dialect: Dialect;
  /** The CODEOWNERS file that decided; null when the base commit has none. */
  readonly file: string | null;
}

/** Divides the job's change by owner and commits each piece on its own branch (a dry run writes nothing). */
export async function commitPieces(s: SplitInput): Promise<SplitResult> {
  const dialect = s.split.codeowners ?? defaultDialect(s.repo, s.env);
  const co = await codeownersInTree(s.repo, s.baseTree, dialect);
  const changed = [...new Set([...s.beforeFix.keys(), ...s.fixChanges.keys()])];
  const made = splitByOwners(changed, co, s.split.maxFiles === undefined ? {} : { maxFiles: s.split.maxFiles });
  const file = co?.file ?? null;
  const pieces: PieceResult[] = [];
  for (const piece of made) {
    const job = pieceJob(s.job, piece.name);
    const files = new Set(piece.files);
    const plan = [...planCommits(s.recipe, job, only(s.beforeFix, files)), ...fixCommit(s.recipe, job, only(s.fixChanges, files))];
    const committed = await commitJob({ ...s, job, plan });
    pieces.push({ job, files, owners: piece.owners, split: splitReport(s.job, piece, dialect, file, co), committed });
    // Interrupted: the pieces after this one are not written either.
    if (committed.failure?.kind === 'interrupted') return { pieces, dialect, file };
  }
  for (const name of await earlierPieces(s.repo, s.recipe.name, s.job, new Set(made.map((p) => p.name)))) {
    const job = pieceJob(s.job, name);
    const split: SplitReport = { job: s.job.name, piece: name, codeowners: dialect, file, directory: null, rules: [] };
    pieces.push({ job, files: new Set(), owners: [], split, committed: { head: null, commits: [], outcome: 'empty', failure: null } });
  }
  return { pieces, dialect, file };
}

function pieceJob(job: JobSpec, piece: string): JobSpec {
  return { ...job, name: `${job.name}/${piece}`, branch: `${job.branch}/${piece}` };
}

function only(changes: Changes, files: ReadonlySet<string>): Changes {
  return new Map([...changes].filter(([path]) => files.has(path)));
}

/** The rules that decided the piece's files, each with how many files it decided, in file order. */
function splitReport(job: JobSpec, piece: Piece, dialect: Dialect, file: string | null, co: Codeowners | undefined): SplitReport {
  const rules = new Map<string, OwnerRuleReport>();
  for (const path of piece.files) {
    for (const r of co?.ownerOf(path).rules ?? []) {
      const key = `${r.line}\0${r.section ?? ''}`;
      const had = rules.get(key);
      rules.set(key, { line: r.line, pattern: r.pattern, section: r.section, files: (had?.files ?? 0) + 1 });
    }
  }
  const sorted = [...rules.values()].sort((a, b) => a.line - b.line);
  return { job: job.name, piece: piece.name, codeowners: dialect, file, directory: piece.directory, rules: sorted };
}

/**
 * The pieces an earlier run of this job left that this run does not make: local branches, and the
 * origin's branches as the last fetch saw them (a CI checkout may hold only those), named
 * `<job branch>/<piece>` whose head is a scion commit of this recipe and of `<job>/<piece>`.
 */
async function earlierPieces(repo: Repo, recipe: string, job: JobSpec, made: ReadonlySet<string>): Promise<string[]> {
  const prefix = `${job.branch}/`;
  const found = new Set<string>();
  for (const namespace of ['refs/heads/', 'refs/remotes/origin/']) {
    for (const branch of listRefs(repo, namespace)) {
      if (!branch.startsWith(prefix)) continue;
      const name = branch.slice(prefix.length);
      if (name.includes('/') || made.has(name) || found.has(name)) continue;
      const head = await readRef(repo, `${namespace}${branch}`);
      if (head === null) continue;
      const t = parseTrailers((await readCommit(repo, head)).message);
      if (t['Scion-Recipe'] === recipe && t['Scion-Job'] === `${job.name}/${name}`) found.add(name);
    }
  }
  return [...found].sort(compareCodeUnits);
}
