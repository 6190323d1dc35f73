// `owners`: whose review each path needs by the CODEOWNERS of a commit, as GitHub or GitLab reads it,
// the line that decided, and every line the host skips. Reads only.
export { ownersAt as owners, type Dialect, type OwnersReport, type OwnersAnswer, type OwnersQuery } from '../owners/index.js';
