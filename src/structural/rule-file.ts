// ast-grep rule files, taken as they are: YAML, one rule per document (`---` between them), applied
// in order. The caller reads the file; this turns its text into compiled rules, or into problems
// that each carry the file's line and column.
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document } from 'yaml';
import { compileRule, type CompiledRule } from './rule.js';
import type { PathSegment } from './problems.js';
import type { Result } from '../errors.js';

export interface LocatedProblem {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly col: number;
  /** Where in the document: "rule.inside.pattern" ("" for the document itself), prefixed by the document number when there are several. */
  readonly path: string;
  readonly message: string;
}

/** A rule of the file, with a way to point at its fields for problems found later (languages, napi's checks). */
export interface FileRule {
  readonly rule: CompiledRule;
  readonly locate: (path: readonly PathSegment[], message: string) => LocatedProblem;
}

/** The file's rules, or every problem in it. */
export type RuleFileResult = Result<readonly FileRule[], readonly LocatedProblem[]>;

export function parseRuleFile(text: string, file: string): RuleFileResult {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  const problems: LocatedProblem[] = [];
  if (!Array.isArray(docs)) {
    return { ok: false, error: [{ file, line: 1, col: 1, path: '', message: 'The rule file holds no YAML documents.' }] };
  }
  const real = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (real.length === 0) {
    const message = 'The rule file is empty: it needs at least one rule (id, language, rule, fix).';
    return { ok: false, error: [{ file, line: 1, col: 1, path: '', message }] };
  }
  const rules: FileRule[] = [];
  real.forEach((doc, n) => {
    const label = real.length > 1 ? `document ${n + 1}` : '';
    for (const e of doc.errors) {
      const at = lines.linePos(e.pos[0]);
      problems.push({ file, line: at.line, col: at.col, path: label, message: `Invalid YAML: ${e.message.split('\n')[0] ?? e.message}` });
    }
    if (doc.errors.length > 0) return;
    const place = (path: readonly PathSegment[], at: 'key' | 'value', message: string): LocatedProblem => {
      const pos = lines.linePos(offsetOf(doc, path, at));
      return { file, line: pos.line, col: pos.col, path: [label, formatPath(path)].filter(Boolean).join(': '), message };
    };
    const compiled = compileRule(doc.toJS() as unknown, { form: 'document' });
    if (compiled.ok) rules.push({ rule: compiled.value, locate: (path, message) => place(path, 'value', message) });
    else for (const p of compiled.error) problems.push(place(p.path, p.at, p.message));
  });
  return problems.length > 0 ? { ok: false, error: problems } : { ok: true, value: rules };
}

/** ['rule', 'all', 0, 'pattern'] → "rule.all[0].pattern" */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  return out;
}

/** The offset of the node at `path` (its key for `at: 'key'`), or of the deepest ancestor that exists. */
function offsetOf(doc: Document, path: readonly PathSegment[], at: 'key' | 'value'): number {
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(seg));
      if (!pair) break;
      const keyStart = rangeStart(pair.key);
      if (at === 'key' && i === path.length - 1 && keyStart !== undefined) return keyStart;
      node = pair.value;
      offset = rangeStart(node) ?? keyStart ?? offset;
    } else if (isSeq(node) && typeof seg === 'number') {
      node = node.items[seg];
      offset = rangeStart(node) ?? offset;
    } else break;
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range?.[0];
}
