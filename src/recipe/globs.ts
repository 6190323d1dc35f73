// Glob selections: one matcher for include/exclude pairs, and the directories a glob set can reach.
import picomatch from 'picomatch';
import { compileExpression, type Machine } from './glob-machine.js';

export interface SelectionLike {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

// "./src/**" and "src/**" mean the same to a user; paths are repository-relative without "./".
const tidy = (glob: string): string => glob.replace(/^(\.\/)+/, '');

/** True for a repository-relative POSIX path that matches an include glob and no exclude glob. */
export function matcher(sel: SelectionLike): (path: string) => boolean {
  // An empty list matches nothing: that is what an empty include should mean.
  const inc = globTest(sel.include.map(tidy), { dot: true });
  const exc = globTest(sel.exclude.map(tidy), { dot: true });
  return (path) => inc(path) && !exc(path);
}

/**
 * Globs as one test, true when any glob matches: the one glob matcher of scion (recipe files, deny,
 * groups, jobs, schemas, --job, the agent's glob and grep tools). A glob means what picomatch says
 * (its regular expression); its cost is bounded by construction (glob-machine.ts): V8 runs the
 * expressions whose shape bounds its backtracking, a state machine runs every other one. The expression is read with the `s`
 * flag: `.` also takes a newline or a tab, which git allows in a path. A glob that carries
 * a back-reference or lookbehind throws GlobSyntaxError (`globProblem` says so up front).
 */
export function globTest(globs: readonly string[], opts: { dot: boolean }): (path: string) => boolean {
  const machines = globs.map((g) => compileGlob(g, opts));
  if (machines.length === 0) return () => false;
  if (machines.length === 1) return (path) => machines[0]!.test(path);
  return (path) => machines.some((m) => m.test(path));
}

function compileGlob(glob: string, opts: { dot: boolean }): Machine {
  const re = picomatch.makeRe(glob, opts);
  return compileExpression(re.source, glob);
}

/** Why a glob cannot be used (one sentence), or null when it can. */
export function globProblem(glob: string): string | null {
  try {
    compileGlob(glob, { dot: true });
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const GLOB_SPECIAL = /[\\*?[\]{}()!+@|,]/g;

/** A literal name inside a glob: every character picomatch would read as syntax is escaped. */
export function escapeGlob(name: string): string {
  return name.replace(GLOB_SPECIAL, (c) => `\\${c}`);
}

/**
 * The directory prefixes ("src/", or "" for everywhere) that a set of globs can reach: a path can
 * match only if it starts with one of them, so a tree walk may skip every other subtree.
 * 'src/**\/*.ts' → ['src/']; 'README.md' → ['']; ['**', 'src/*'] → [''].
 */
export function staticPrefixes(globs: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const raw of globs) {
    const scan = picomatch.scan(tidy(raw));
    if (scan.negated) {
      prefixes.add('');
      continue;
    }
    // A glob without magic is a path: its directory is the prefix.
    const dir = scan.isGlob ? scan.base : scan.base.split('/').slice(0, -1).join('/');
    prefixes.add(dir === '' ? '' : `${dir}/`);
  }
  const sorted = [...prefixes].sort();
  // Keep only the widest: "src/" already reaches "src/core/".
  return sorted.filter((p) => !sorted.some((q) => q !== p && p.startsWith(q)));
}

/**
 * The include globs of `selections` that match none of `paths`, each once, in order: a typo in
 * `files` otherwise leaves a job silently empty. `**` (the default) is never listed.
 */
export function unmatchedGlobs(selections: readonly SelectionLike[], paths: Iterable<string>): string[] {
  const globs = [...new Set(selections.flatMap((s) => s.include))].filter((g) => tidy(g) !== '**');
  if (globs.length === 0) return [];
  const left = new Map(globs.map((g) => [g, globTest([tidy(g)], { dot: true })]));
  for (const p of paths) {
    for (const [g, test] of left) if (test(p)) left.delete(g);
    if (left.size === 0) return [];
  }
  return globs.filter((g) => left.has(g));
}
