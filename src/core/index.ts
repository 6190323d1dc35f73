// The edit engine's public surface. Pure: bytes and strings in, values out.
export type {
  DecodedText,
  Edit,
  Encoding,
  EngineOptions,
  EngineResult,
  FileChange,
  FileInput,
  FilePatch,
  Hunk,
  LineEndings,
  NotebookEdit,
  ReadState,
} from './types.js';
export { DEFAULT_MAX_BYTES } from './limits.js';
export { decodeFile, decodeText } from './text/decode.js';
export { encodeText } from './text/encode.js';
export { checkPath } from './check-path.js';
export { gitPathProblem } from './git-path.js';
export { applyEdits } from './engine/apply-edits.js';
export { writeContent } from './engine/write-content.js';
export { applyChanges } from './engine/apply-changes.js';
export { editNotebook } from './engine/edit-notebook.js';
export { replaceRegex, replaceRegexBounded } from './engine/replace-regex.js';
export { RegexRunner, type RegexMatch, type Bounded } from './engine/regex-runner.js';
export { editsEquivalent } from './edit/equivalent.js';
export { makePatch } from './patch/make-patch.js';
export { findSecrets } from './edit/secrets.js';
export { writtenSecret } from './engine/checks.js';
export { findActualString } from './edit/quotes.js';
