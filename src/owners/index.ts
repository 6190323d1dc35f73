// Code owners, as GitHub or GitLab computes them from CODEOWNERS, and a change divided by owner.
// Pure: text and a reader in, values out. The `split:` step and `scion owners` are thin callers of this.
export type { Codeowners, Dialect, OwnersReport, PathOwners, Rule, RuleRef, Section, SkippedLine, Warning } from './types.js';
export { CODEOWNERS_LOCATIONS, codeownersFor, ownersReport, parseCodeowners, type ReadFile } from './codeowners.js';
export { GITHUB_MAX_BYTES } from './parse-github.js';
export { slugOf, splitByOwners, type Piece, type SplitOptions } from './pieces.js';
