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
  // An empty list matches nothing: that is what an empty include should mean.
  const inc = globTest(sel.include.map(tidy), { dot: true });
  const exc = globTest(sel.exclude.map(tidy), { dot: true });
  return (path) => inc(path) && !exc(path);
}

/**
 * picomatch's globs as one test, true when any glob matches. Its regular expressions use `.` for
 * "any character", which skips a newline: compiled with the `s` flag, a path holding a newline or a
 * tab (git allows both) is matched like any other (SPEC §7).
 */
export function globTest(globs: readonly string[], opts: { dot: boolean }): (path: string) => boolean {
  const res = globs.map((g) => {
    const re = picomatch.makeRe(g, opts);
    return new RegExp(re.source, re.flags.includes('s') ? re.flags : `${re.flags}s`);
  });
  if (res.length === 0) return () => false;
  return (path) => res.some((re) => re.test(path));
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
