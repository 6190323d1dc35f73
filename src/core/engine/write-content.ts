// FileWriteTool: the whole content, exactly as given. The file's encoding is kept; its line endings
// are not: the content's own newlines are the intent (a CRLF rewrite once broke bash scripts).
import { fail } from '../../errors.js';
import { toLF } from '../text/line-endings.js';
import type { EngineOptions, EngineResult, FileInput } from '../types.js';
import { decodeInput, pathCheck, readCheck, secretCheck, sizeCheck, unicodeCheck } from './checks.js';
import { finish } from './finish.js';

export function writeContent(file: FileInput, content: string, opts: EngineOptions = {}): EngineResult {
  const secret = secretCheck(file.path, [content], file, opts);
  if (secret) return fail(secret);
  const path = pathCheck(file, opts);
  if (!path.ok) return path;
  const p = path.value;
  const late = unicodeCheck(p, [content]) ?? sizeCheck(p, file.bytes, opts);
  if (late) return fail(late);
  const decoded = decodeInput(p, file.bytes);
  if (!decoded.ok) return decoded;
  const d = decoded.value;
  // Creating a file needs no read; overwriting one needs a full read of it.
  const unread = d === null ? null : readCheck(p, d.text, opts, false);
  if (unread) return fail(unread);
  return finish({ path: p, file, decoded: d, result: { text: toLF(content) }, verbatim: content }, opts);
}
