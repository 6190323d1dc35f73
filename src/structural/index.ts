/**
 * Structural edits: the engines behind the `astgrep` and `jscodeshift` recipe steps. Bytes in, values
 * out; no repository, no git, no process state (beyond loading native modules and language packages).
 *
 * astgrep (ast-grep through @ast-grep/napi, in process):
 *
 *   loadAstgrep(source, { fromDir }) → Promise<Loaded>
 *     source: { kind: 'inline', step }  — the step's fields: rule, fix, constraints, utils, transform,
 *                                          language (and files, which is the caller's to apply);
 *             { kind: 'file', file, text } — an ast-grep rule file's name and text (the caller reads
 *                                          it); several YAML documents are several rules, in order.
 *     fromDir: where @ast-grep/lang-* packages resolve from, upwards (the recipe file's folder).
 *     Loaded: Result<program, problems> — every problem at once: a step problem
 *     has a path into the step object (['rule', 'inside', 'kindd']) for the recipe's file:line:col;
 *     a rule-file problem has its own file, line and column. A missing language package is one of
 *     them, naming the package and the install command.
 *
 *   languageOf(program, path) → string | null   which files the step reads (by extension)
 *   onlyRules(program, indexes) → program         the rules a rule file's own files/ignores leave to a path
 *   mayMatch(program, path, bytes) → boolean     a cheap test before reading on (see prefilter.ts)
 *   rewriteFile(program, { path, bytes }) → Result<FileOutcome>   synchronous
 *     FileOutcome: { status: 'changed', matches, after (bytes to write), oldText, newText, changes }
 *                | { status: 'unchanged', matches }        (no match, a count-only rule, identity fix)
 *                | { status: 'skipped', reason: 'syntax-error', matches }
 *     Failure kinds: invalid-result (the fix breaks the syntax), binary, encoding.
 *
 * jscodeshift (jscodeshift 17, loaded on first use):
 *
 *   loadTransform(specifier, fromDir) → Promise<Result<transform, message>>
 *   parserExtensions(parser) → extensions the parser reads (babel | babylon | flow | ts | tsx)
 *   runTransformOn(transform, { path, bytes }, { parser?, options? }) → Promise<Result<TransformOutcome>>
 *     TransformOutcome: { status: 'changed', after, oldText, newText, changes, reports }
 *                     | { status: 'unchanged', reports }
 *     Failure kinds: transform (it threw, naming the file and the message; or returned a non-string),
 *     binary, encoding.
 *
 * Deadlines and parallelism:
 *
 *   new StructuralPool(size?) — child processes holding the step's engine.
 *   pool.run(job, { path, bytes }, { timeoutMs?, signal? }) → Promise<Result<FileOutcome | TransformOutcome>>
 *     job: { kind: 'astgrep', source, fromDir, rules? } | { kind: 'jscodeshift', specifier, fromDir, parser?, options? }
 *        | { kind: 'search', pattern, language }   (the agent's astgrep_search: SearchHit[] per file, search.ts)
 *     Past the deadline (or on abort) the child is killed and the file answers `timeout`
 *     (`interrupted`); the other files go on in fresh children. pool.close() when the step ends.
 *   Call rewriteFile/runTransformOn directly when no deadline is needed: neither can be interrupted
 *   on the thread that runs it (napi's native calls, a transform's loop).
 *
 * A step built on this: load once (validate reports the problems); for each selected file with
 * languageOf/parserExtensions and mayMatch, read it, run it (through the pool when the step has a
 * timeout), write `after` when changed, report `matches`, list `skipped` files, and pass the
 * Failures on. Secrets, deny lists and paths stay the caller's (core/), as for edit and replace.
 */
export { languageOf, mayMatch, onlyRules, rewriteFile, type AstgrepProgram, type FileOutcome, type ProgramRule } from './astgrep.js';
export { loadAstgrep, type AstgrepSource, type LoadOptions, type LoadProblem, type Loaded } from './load.js';
export { INLINE_KEYS, type CompiledRule } from './rule.js';
export { parseRuleFile, type LocatedProblem } from './rule-file.js';
export { BUILTIN_LANGUAGES, canonicalLanguage, extensionOf } from './languages.js';
export { installHint, packageFor, type PackResolver } from './packs.js';
export { PARSERS, loadTransform, parserExtensions, runTransformOn } from './jscodeshift.js';
export type { LoadedTransform, ParserName, RunOptions, TransformOutcome } from './jscodeshift.js';
export { StructuralPool, type PoolFile, type PoolJob, type PoolOutcome, type RunLimits } from './pool.js';
export type { PathSegment } from './problems.js';
export { searchFile, searchLanguage, type SearchHit } from './search.js';
