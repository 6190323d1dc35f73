// The `astgrep` engine: a loaded program (one inline rule, or a rule file's rules in order) applied to
// one file's bytes. Expected outcomes are values: the file changed, unchanged, skipped because it
// already had syntax errors; or a Failure (binary, encoding, invalid-result).
import { failure, fail, ok, type Result } from '../errors.js';
import { mergeRegions, toChanges, type Change, type Region } from '../core/edit/regions.js';
import { decodeAt } from '../core/engine/checks.js';
import { spliceBytes } from '../core/text/splice-bytes.js';
import { BUILTIN_LANGUAGES, extensionOf, isBuiltin, lexiconOf } from './languages.js';
import type { Napi, SgNode } from './napi.js';
import { applyEdits, runRule } from './rewrite.js';
import type { CompiledRule } from './rule.js';
import { resultVerdict } from './syntax-check.js';
import { hasSyntaxError } from './tree.js';

/** A rule with the languages it can run on (a rule without `language` runs on every one it compiles for). */
export interface ProgramRule {
  readonly rule: CompiledRule;
  readonly languages: ReadonlySet<string>;
}

export interface AstgrepProgram {
  readonly napi: Napi;
  readonly rules: readonly ProgramRule[];
  /** Extension (no dot, lower case) → language, for every language a rule of the program runs on. */
  readonly extensions: ReadonlyMap<string, string>;
}

export type FileOutcome =
  | {
      readonly status: 'changed';
      /** Matches rewritten (nested ones included). */
      readonly matches: number;
      readonly after: Uint8Array;
      /** LF text before and after; `changes` turn one into the other. */
      readonly oldText: string;
      readonly newText: string;
      readonly changes: readonly Change[];
    }
  /** Nothing to write: no match, a count-only rule (`matches` found), or fixes that reproduce the source. */
  | { readonly status: 'unchanged'; readonly matches: number }
  /** The file had syntax errors before any rewrite: it is left alone. */
  | { readonly status: 'skipped'; readonly reason: 'syntax-error'; readonly matches: number };

/** The language a path is read as by this program, or null when no rule of it reads such files. */
export function languageOf(program: AstgrepProgram, path: string): string | null {
  return program.extensions.get(extensionOf(path)) ?? null;
}

/** The program with only the rules at these indexes (in their order): a file some rules' own globs leave out. */
export function onlyRules(program: AstgrepProgram, indexes: readonly number[]): AstgrepProgram {
  return { ...program, rules: indexes.flatMap((i) => (program.rules[i] ? [program.rules[i]] : [])) };
}

/** Cheap test on the bytes: false means no rule of the program can match this file. */
export function mayMatch(program: AstgrepProgram, path: string, bytes: Uint8Array): boolean {
  const language = languageOf(program, path);
  return language !== null && program.rules.some((r) => r.languages.has(language) && r.rule.mayMatch(bytes));
}

/** Runs every rule of the program, in order, on one file. Synchronous: call it off the main thread for a deadline (pool.ts). */
export function rewriteFile(program: AstgrepProgram, file: { readonly path: string; readonly bytes: Uint8Array }): Result<FileOutcome> {
  const language = languageOf(program, file.path);
  const rules = language === null ? [] : program.rules.filter((r) => r.languages.has(language));
  // Nothing is decoded or parsed unless a rule can match the bytes as they are.
  if (language === null || !rules.some((r) => r.rule.mayMatch(file.bytes))) return ok({ status: 'unchanged', matches: 0 });
  const decoded = decodeAt(file.path, file.bytes);
  if (!decoded.ok) return decoded;
  const d = decoded.value;
  const napiLanguage = isBuiltin(language) ? (BUILTIN_LANGUAGES[language] as { napi: string }).napi : language;
  const lexicon = lexiconOf(language);
  const original = d.text;
  let text = original;
  const originalRoot: SgNode = program.napi.parse(napiLanguage as never, text).root();
  let root = originalRoot;
  let regions: Region[] = [];
  let matches = 0;
  let checked = false;
  let rootText = text;
  for (const { rule } of rules) {
    // A later rule is tested against what the earlier ones wrote: it may match only that.
    if (!(text === original ? rule.mayMatch(file.bytes) : rule.mayMatchText(text))) continue;
    if (rootText !== text) {
      root = program.napi.parse(napiLanguage as never, text).root();
      rootText = text;
    }
    const out = runRule(root, text, rule, lexicon);
    matches += out.matches;
    if (out.edits.length === 0) continue;
    if (!checked) {
      // Only a file about to be rewritten is checked: a file that was broken already is not ours to judge.
      if (hasSyntaxError(originalRoot, out.edits)) return ok({ status: 'skipped', reason: 'syntax-error', matches: 0 });
      checked = true;
    }
    regions = mergeRegions(
      original,
      regions,
      out.edits.map((e) => ({ start: e.start, oldLength: e.end - e.start, text: e.text })),
    );
    text = applyEdits(text, out.edits);
  }
  const changes = toChanges(regions);
  if (text === original || changes.length === 0) return ok({ status: 'unchanged', matches });
  if (resultVerdict(program.napi, napiLanguage, originalRoot, original, text, changes) === 'broken') {
    return fail(
      failure(
        'invalid-result',
        `The fix would leave ${file.path} with a syntax error (it parsed as ${language} before); the file was left as it was. ` +
          'Check the fix template against the code it replaces.',
        { path: file.path, language },
        'The fix template would break the syntax of this file: check it against the code the rule matches here, or narrow the rule.',
      ),
    );
  }
  return ok({ status: 'changed', matches, after: spliceBytes(file.bytes, d, changes), oldText: original, newText: text, changes });
}
