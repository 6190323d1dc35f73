// Finding code by its shape: one ast-grep pattern in one language, over one file's bytes, answered as
// the lines where each match starts. What the agent's `astgrep_search` tool runs, in a pool worker
// (pool.ts), so a search of a huge file ends at its deadline like any structural rewrite.
import { failure, fail, ok, type Result } from '../errors.js';
import { decodeFile } from '../core/text/decode.js';
import { BUILTIN_LANGUAGES, canonicalLanguage, isBuiltin } from './languages.js';
import type { Napi } from './napi.js';

export interface SearchHit {
  /** 1-based line and column (in UTF-16 code units) where the match starts. */
  readonly line: number;
  readonly column: number;
  /** The match's first line. */
  readonly text: string;
}

/** The built-in languages a search may name (packages need a recipe's folder to resolve from). */
export function searchLanguage(name: string): string | null {
  const l = canonicalLanguage(name);
  return isBuiltin(l) ? l : null;
}

/** Every match of `pattern` in the file, in source order. Failures: binary, encoding, unsupported (a pattern napi refuses). */
export function searchFile(napi: Napi, language: string, pattern: string, file: { readonly path: string; readonly bytes: Uint8Array }): Result<SearchHit[]> {
  const decoded = decodeFile(file.bytes);
  if (!decoded.ok) return fail({ ...decoded.error, message: `${file.path}: ${decoded.error.message}`, data: { ...decoded.error.data, path: file.path } });
  const napiName = BUILTIN_LANGUAGES[language]?.napi ?? language;
  try {
    const root = napi.parse(napiName as never, decoded.value.text).root();
    return ok(
      root.findAll(pattern).map((node) => {
        const start = node.range().start;
        return { line: start.line + 1, column: start.column + 1, text: node.text().split('\n')[0] ?? '' };
      }),
    );
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
    return fail(failure('unsupported', `ast-grep cannot use the pattern ${JSON.stringify(pattern)} as ${language}: ${why}`, { pattern, language }));
  }
}
