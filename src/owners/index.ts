// Code owners, as GitHub or GitLab computes them from CODEOWNERS, and a change divided by owner.
// Pure (text and a reader in, values out) but for at-commit.ts, which reads a commit's CODEOWNERS. Its callers stay thin:
//   split step:     const co = await codeownersFor((p) => base.read(p), { dialect });
//                   for (const piece of splitByOwners(changedPaths, co, { maxFiles })) ... ownerKinds(piece.owners)
//   scion owners:   const co = await codeownersFor(readAtRef, { dialect }); if (!co) exit 2;
//                   print(ownersReport(co, paths))   // the --json shape as is
export type { Codeowners, Dialect, OwnersReport, PathOwners, Rule, RuleRef, Section, SkippedLine, Warning } from './types.js';
export { CODEOWNERS_LOCATIONS, codeownersFor, ownersReport, parseCodeowners, type ReadFile } from './codeowners.js';
export { GITHUB_MAX_BYTES } from './parse-github.js';
export { slugOf, splitByOwners, type Piece, type SplitOptions } from './pieces.js';
export { ownerKinds, type OwnerKinds } from './owner-kinds.js';
export { codeownersAt, codeownersInTree, defaultDialect, ownersAt, type OwnersAnswer, type OwnersQuery } from './at-commit.js';
