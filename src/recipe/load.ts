// loadRecipe: a recipe file → a validated Recipe, or every problem in it at once with file:line:col.
import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { isAlias, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { branchProblems } from './jobs.js';
import { importDefault } from './load-module.js';
import { sourcePosition } from './source-position.js';
import { formatPath, issuesToProblems, parseErrorMap, type Problem, type RawProblem } from './problems.js';
import { recipeSchema, type Recipe } from './schema.js';
import { decodeSource } from './source-text.js';
import type { Result } from '../errors.js';
import { loadStructural } from './structural.js';

// loadRecipe's answer is part of the library's published API (README: Library API): it keeps its own
// field names (`recipe`, `file`, `problems`) rather than Result's `value` and `error`.
export type LoadResult = { ok: true; recipe: Recipe; file: string } | { ok: false; file: string; problems: Problem[] };

const TEXT_FORMATS = new Set(['.yaml', '.yml', '.json']);
const MODULE_FORMATS = new Set(['.js', '.mjs', '.ts']);

/** Where each raw problem is in the source: YAML/JSON node positions, or the top of a module. */
type Placer = (p: RawProblem) => { line: number; col: number };

export async function loadRecipe(file: string): Promise<LoadResult> {
  const ext = extname(file).toLowerCase();
  const atTop = (message: string): LoadResult => ({ ok: false, file, problems: [{ file, line: 1, col: 1, path: '', message }] });
  if (!TEXT_FORMATS.has(ext) && !MODULE_FORMATS.has(ext)) {
    return atTop(`a recipe file ends in .yaml, .yml, .json, .js, .mjs or .ts, not "${ext || file}"`);
  }

  let data: unknown;
  let place: Placer = () => ({ line: 1, col: 1 });
  const problems: Problem[] = [];
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    return atTop(readFailure(err));
  }
  // A module is read here only to be checked: Node's loader would decode bad bytes as U+FFFD.
  const source = decodeSource(bytes);
  if (!source.ok) {
    const { line, col, message } = source.error;
    return { ok: false, file, problems: [{ file, line, col, path: '', message: `the recipe file ${message}` }] };
  }
  if (TEXT_FORMATS.has(ext)) {
    const parsed = parseText(file, source.value);
    problems.push(...parsed.problems);
    data = parsed.data;
    place = (p) => sourcePosition(parsed.doc, parsed.lines, p.path, p.at);
  } else {
    const imported = await importDefault(resolve(file));
    if (!imported.ok) return atTop(imported.message);
    data = imported.value;
  }

  if (data === undefined || data === null) {
    // A file that did not parse has said why; "empty" would be a second, wrong reason.
    if (problems.length === 0) problems.push({ file, line: 1, col: 1, path: '', message: 'the recipe is empty; it needs at least name and steps' });
    return { ok: false, file, problems };
  }
  const result = recipeSchema.safeParse(data, { error: parseErrorMap });
  if (!result.success) {
    for (const raw of issuesToProblems(result.error.issues, data)) problems.push(toProblem(file, raw, place));
  }
  if (problems.length > 0 || !result.success) return { ok: false, file, problems: sortProblems(problems) };
  const branches = branchProblems(result.data).map((b): RawProblem => ({ path: b.path, message: b.message, at: 'value' }));
  if (branches.length > 0) return { ok: false, file, problems: sortProblems(branches.map((raw) => toProblem(file, raw, place))) };

  const schemas = await resolveSchemas(result.data, dirname(file));
  if (!schemas.ok) return { ok: false, file, problems: schemas.error.map((raw) => toProblem(file, raw, place)) };
  // Rules and transforms: a missing rule file, a bad rule or language package, a module without a default export.
  const structural = await loadStructural({ ...result.data, schemas: schemas.value }, dirname(file));
  if (!structural.ok) {
    const own = structural.error.problems.map((raw) => toProblem(file, raw, place));
    return { ok: false, file, problems: [...sortProblems(own), ...structural.error.foreign] };
  }
  return { ok: true, file, recipe: structural.value };
}

function parseText(file: string, text: string): { doc: Document; lines: LineCounter; data: unknown; problems: Problem[] } {
  const lines = new LineCounter();
  // JSON goes through the YAML parser too (JSON is YAML 1.2): that is what gives it line:col.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, merge: true, uniqueKeys: true });
  // An error "at the end of input" would point past the last line; the end of the last line reads better.
  const end = text.trimEnd().length;
  const problems = doc.errors.map((err): Problem => {
    const pos = lines.linePos(Math.min(err.pos[0], end));
    return { file, line: pos.line, col: pos.col, path: '', message: err.message.split('\n')[0] ?? err.code };
  });
  // Nesting deep enough to exhaust the reader leaves a half-read document: its fields would only
  // add misleading problems, so that one problem is all there is to say.
  const exhausted = doc.errors.find((err) => err.code === 'RESOURCE_EXHAUSTION');
  if (exhausted) {
    const pos = lines.linePos(Math.min(exhausted.pos[0], end));
    const message = 'the recipe nests lists or mappings too deeply for the YAML reader; flatten it';
    return { doc, lines, data: undefined, problems: [{ file, line: pos.line, col: pos.col, path: '', message }] };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (problems.length === 0) problems.push(expansionProblem(file, doc, lines, err));
  }
  return { doc, lines, data, problems };
}

/** Alias uses (each counted with everything it expands to) a recipe may make: far more than any real recipe needs. */
const MAX_ALIAS_COUNT = 1000;

/**
 * The YAML library refuses a document whose aliases expand past the limit (a "billion laughs" file
 * grows exponentially with each level of aliases): said in a user's words, at the first alias.
 */
function expansionProblem(file: string, doc: Document, lines: LineCounter, err: unknown): Problem {
  const message = err instanceof Error ? err.message : String(err);
  let at: number | undefined;
  visit(doc, {
    Alias(_, node) {
      if (isAlias(node) && node.range) at = node.range[0];
      return visit.BREAK;
    },
  });
  const pos = lines.linePos(at ?? 0);
  if (!/alias count/i.test(message)) return { file, line: pos.line, col: pos.col, path: '', message };
  return {
    file,
    line: pos.line,
    col: pos.col,
    path: '',
    message:
      `the recipe's YAML aliases (*name) expand to too much data (more than ${MAX_ALIAS_COUNT} alias uses, as in a "billion laughs" file); ` +
      'write the values out instead of nesting aliases',
  };
}

/** `schemas[].schema` given as a path: read it now, so a missing or broken schema file stops the run early. */
async function resolveSchemas(recipe: Recipe, dir: string): Promise<Result<Recipe['schemas'], RawProblem[]>> {
  const problems: RawProblem[] = [];
  const value: Recipe['schemas'] = [];
  for (const [i, entry] of recipe.schemas.entries()) {
    if (typeof entry.schema !== 'string') {
      value.push(entry);
      continue;
    }
    const path = ['schemas', i, 'schema'];
    const abs = resolve(dir, entry.schema);
    try {
      const source = decodeSource(await readFile(abs));
      if (!source.ok) {
        problems.push({ path, at: 'value', message: `${entry.schema} ${source.error.message}` });
        continue;
      }
      const json: unknown = JSON.parse(source.value);
      if (json === null || typeof json !== 'object' || Array.isArray(json)) {
        problems.push({ path, at: 'value', message: `${entry.schema} does not hold a JSON Schema object` });
      } else value.push({ ...entry, schema: json as Record<string, unknown> });
    } catch (err) {
      const why = err instanceof SyntaxError ? `is not valid JSON (${err.message})` : readFailure(err, entry.schema);
      problems.push({ path, at: 'value', message: err instanceof SyntaxError ? `${entry.schema} ${why}` : why });
    }
  }
  return problems.length > 0 ? { ok: false, error: problems } : { ok: true, value };
}

function readFailure(err: unknown, name?: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  const what = name ? `the schema file ${name}` : 'the recipe file';
  if (code === 'ENOENT') return `${what} does not exist; check the path`;
  if (code === 'EISDIR') return `${what} is a directory, not a file`;
  return `${what} could not be read: ${(err as Error).message}`;
}

function toProblem(file: string, raw: RawProblem, place: Placer): Problem {
  const pos = place(raw);
  return { file, line: pos.line, col: pos.col, path: formatPath(raw.path), message: raw.message };
}

function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => a.line - b.line || a.col - b.col);
}
