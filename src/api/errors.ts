// The error vocabulary as the CLI and programs see it: the one coded error, its kinds, the fix for a
// job's kind, and an OS refusal (disk full, permission, read-only) said as one sentence.
export {
  ERROR_KINDS,
  CALL_KINDS,
  GIT_KINDS,
  isJobKind,
  isScionError,
  ScionError,
  usageError,
  type ErrorKind,
  type ScionErrorKind,
  type Failure,
  type Result,
} from '../errors.js';
export { fixHint } from '../report/hints.js';
export { refusalOf } from '../refusal.js';
