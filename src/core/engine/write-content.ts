// FileWriteTool: the whole content, exactly as given. The file's encoding is kept; its line endings
// are not: the content's own newlines are the intent (a CRLF rewrite once broke bash scripts).
import { toLF } from '../text/line-endings.js';
import type { EngineOptions, EngineResult, FileInput } from '../types.js';
import { finish } from './finish.js';
import { prepare } from './prepare.js';

export function writeContent(file: FileInput, content: string, opts: EngineOptions = {}): EngineResult {
  // Creating a file needs no read; overwriting one needs a full read of it. Notebooks may be written whole.
  const front = prepare(file, { added: [content], mayCreate: true, refuseNotebook: false, partialReadOk: false }, opts);
  if (!front.ok) return front;
  const { path: p, decoded: d } = front.value;
  return finish({ path: p, file, decoded: d, result: { text: toLF(content) }, verbatim: content }, opts);
}
