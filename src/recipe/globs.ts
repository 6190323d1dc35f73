// Glob selections: one matcher for include/exclude pairs, and the directories a glob set can reach.
import picomatch from 'picomatch';

export interface SelectionLike {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

// "./src/**" and "src/**" mean the same to a user; paths are repository-relative without "./".
const tidy = (glob: string): string => glob.replace(/^(\.\/)+/, '');

/** True for a repository-relative POSIX path that matches an include glob and no exclude glob. */
export function matcher(sel: SelectionLike): (path: string) => boolean {
  const opts = { dot: true };
  // picomatch with an empty list matches nothing: that is what an empty include should mean.
  const inc = sel.include.length > 0 ? picomatch(sel.include.map(tidy), opts) : () => false;
  const exc = sel.exclude.length > 0 ? picomatch(sel.exclude.map(tidy), opts) : () => false;
  return (path) => inc(path) && !exc(path);
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
