// What a CODEOWNERS file says, as its host reads it: the rules that count, the lines the host would skip,
// and, for a path, its owners and the rules that decided them. Pure data; the parsers build it.

/** Whose reading of CODEOWNERS: GitHub's (last match wins) or GitLab's (sections, every section applies). */
export type Dialect = 'github' | 'gitlab';

/** One line of the file that takes part in matching. */
export interface Rule {
  /** 1-based line number in the file. */
  readonly line: number;
  /** The pattern as written, with GitLab's leading `!` when the rule is an exclusion. */
  readonly pattern: string;
  /** Owners as written (`@user`, `@org/team`, an e-mail, GitLab's `@@role`). Empty: the rule leaves its files unowned. */
  readonly owners: readonly string[];
  /** The GitLab section the rule belongs to (the first spelling of its name); null outside sections and on GitHub. */
  readonly section: string | null;
  /** A GitLab `!pattern`: files it matches take no owners from its section. */
  readonly exclusion: boolean;
}

/** A GitLab section: every header of the same name (case-insensitive) merged into one. */
export interface Section {
  /** The first spelling of the name; null for the rules before the first header. */
  readonly name: string | null;
  /** Lines of its headers (none for the unnamed section). */
  readonly lines: readonly number[];
  /** `^[Name]`: true only when every header of the name is marked optional. */
  readonly optional: boolean;
  /** `[Name][N]`: approvals required (at least 1; the largest N among its headers). */
  readonly approvals: number;
}

/** A line that takes no part in matching, and why. */
export interface SkippedLine {
  readonly line: number;
  readonly text: string;
  readonly reason: string;
}

/**
 * A line that takes part, but not all of it as written (a GitLab owner that is not one, a header read as
 * a pattern), or, with line 0, the whole file (GitHub ignores one over 3 MB).
 */
export type Warning = SkippedLine;

/** The rule that decided a path's owners (one per GitLab section that matched). */
export interface RuleRef {
  readonly line: number;
  readonly pattern: string;
  readonly section: string | null;
}

/** A path's owners and why. */
export interface PathOwners {
  readonly path: string;
  /** Deduplicated (owner names compare case-insensitively), in the order the deciding rules list them. */
  readonly owners: readonly string[];
  /** GitHub: the last matching line (none when no line matches). GitLab: each matching section's deciding line. */
  readonly rules: readonly RuleRef[];
}

/** A CODEOWNERS file as one host reads it. */
export interface Codeowners {
  readonly dialect: Dialect;
  /** Where the file was read from, repository-relative (`.github/CODEOWNERS`). */
  readonly file: string;
  /** Rules in file order (GitLab: a pattern repeated in a section counts once, as its last line). */
  readonly rules: readonly Rule[];
  /** GitLab's sections in order of first appearance, the unnamed one first; empty on GitHub. */
  readonly sections: readonly Section[];
  readonly skipped: readonly SkippedLine[];
  readonly warnings: readonly Warning[];
  /** The owners of one repository-relative POSIX path (`src/app.ts`, no leading slash). */
  ownerOf(path: string): PathOwners;
  /** `ownerOf` for each path, in the order given. */
  ownersOf(paths: readonly string[]): PathOwners[];
}

/** What `scion owners --json` prints: exactly these fields. */
export interface OwnersReport {
  readonly file: string;
  readonly paths: readonly PathOwners[];
  readonly skipped: readonly SkippedLine[];
}
