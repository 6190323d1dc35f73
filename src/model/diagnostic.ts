// One problem a verify command reported about a file: what the fix conversation is shown,
// what the report lists per job, and what becomes a workflow annotation.

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Repository-relative POSIX path. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based; 0 when the tool gave no column (mypy without --show-column-numbers). */
  readonly col: number;
  readonly severity: Severity;
  readonly message: string;
  /** Which output format it was read from: `tsc`, `eslint` or `generic` (gcc, clang, rustc, mypy, ruff, go vet…). */
  readonly source: 'tsc' | 'eslint' | 'generic';
  /** The tool's own code for the problem when it printed one: `TS2322`, `no-unused-vars`, `E0308`, `F401`. */
  readonly code?: string;
}
