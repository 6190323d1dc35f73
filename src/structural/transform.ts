// A rule's `transform`: new metavariables computed from captured ones (substring, replace, convert),
// in the object form and the string form (`replace($A, replace='a', by='b')`) of ast-grep rule files.
// ast-grep computes them too; scion computes one itself when its source was rewritten by a nested
// match, so that the fix sees the rewritten text (rewrite.ts).
import { parse as parseYaml } from 'yaml';
import { convertCase, SEPARATORS, STRING_CASES, type Separator, type StringCase } from './string-case.js';
import { rustRegex, rustReplaceAll } from './rust-regex.js';
import { isRecord, problem, unknownKeys, type Checked, type PathSegment, type RuleProblem } from './problems.js';

export interface VarRef {
  readonly name: string;
  readonly multi: boolean;
}

export type Transformation =
  | { readonly kind: 'substring'; readonly source: VarRef; readonly startChar?: number; readonly endChar?: number }
  | { readonly kind: 'replace'; readonly source: VarRef; readonly replace: string; readonly by: string; readonly regex: RegExp | string }
  | { readonly kind: 'convert'; readonly source: VarRef; readonly toCase: StringCase; readonly separatedBy?: readonly Separator[] };

/** Transformations in an order where each one's source is computed before it is read. */
export interface Transforms {
  readonly order: readonly (readonly [string, Transformation])[];
  /** The rule's `transform` value as given, for napi. */
  readonly raw: Record<string, unknown>;
}

const KINDS = ['substring', 'replace', 'convert'] as const;

const NO_REWRITE = 'The `rewrite` transformation (with `rewriters`) is not supported by scion yet: use a second rule in the same rule file instead.';

const refuse = <T>(path: readonly PathSegment[], message: string, at: 'key' | 'value' = 'value'): Checked<T> => ({
  ok: false,
  error: [problem(path, message, at)],
});

export function parseTransforms(raw: unknown, path: readonly PathSegment[]): Checked<Transforms> {
  if (raw === undefined) return { ok: true, value: { order: [], raw: {} } };
  if (!isRecord(raw)) return { ok: false, error: [problem(path, '`transform` must be a mapping of new variable names to transformations.')] };
  const problems: RuleProblem[] = [];
  const parsed = new Map<string, Transformation>();
  for (const [name, value] of Object.entries(raw)) {
    const at = [...path, name];
    if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) {
      problems.push(problem(at, `The transform name \`${name}\` must be an upper-case metavariable name (like NEW_NAME), without the $.`, 'key'));
    }
    const t = typeof value === 'string' ? fromString(value, at) : fromObject(value, at);
    if (t.ok) parsed.set(name, t.value);
    else problems.push(...t.error);
  }
  if (problems.length > 0) return { ok: false, error: problems };
  const order = topological(parsed);
  if (typeof order === 'string') return refuse([...path, order], `The transform \`${order}\` depends on itself through its sources.`);
  return { ok: true, value: { order, raw } };
}

/** Where a transformation reads its source: the text, and whether nested matches rewrote it. */
export interface SourceText {
  readonly text: string | null;
  readonly rewritten: boolean;
}

/**
 * Every transformation's value. ast-grep's own value (`native`) is exact and is used whenever the
 * source text is the matched source; a source that nested matches rewrote is transformed here.
 */
export function computeTransforms(t: Transforms, read: (v: VarRef) => SourceText, native: (name: string) => string | null): Map<string, string> {
  const out = new Map<string, SourceText>();
  for (const [name, tr] of t.order) {
    const src = !tr.source.multi && out.has(tr.source.name) ? (out.get(tr.source.name) as SourceText) : read(tr.source);
    const own = src.rewritten ? computable(tr) : false;
    out.set(name, own ? { text: src.text === null ? '' : apply(tr, src.text), rewritten: true } : { text: native(name) ?? '', rewritten: false });
  }
  return new Map([...out].map(([k, v]) => [k, v.text ?? '']));
}

/** False for a replace whose Rust pattern JavaScript cannot run (see rust-regex.ts). */
export function computable(tr: Transformation): boolean {
  return tr.kind !== 'replace' || typeof tr.regex !== 'string';
}

export function apply(tr: Transformation, text: string): string {
  switch (tr.kind) {
    case 'substring': {
      const chars = Array.from(text);
      const len = chars.length;
      const start = resolveChar(tr.startChar, 0, len);
      const end = resolveChar(tr.endChar, len, len);
      return start > end || start >= len || end > len ? '' : chars.slice(start, end).join('');
    }
    case 'replace':
      return typeof tr.regex === 'string' ? text : rustReplaceAll(text, tr.regex, tr.by);
    case 'convert':
      return convertCase(text, tr.toCase, tr.separatedBy);
  }
}

/** Python-style: negative counts from the end; out of range clamps. */
function resolveChar(given: number | undefined, dflt: number, len: number): number {
  const c = given ?? dflt;
  if (c >= len) return len;
  if (c >= 0) return c;
  return len + c < 0 ? 0 : len + c;
}

function sourceRef(v: unknown, at: readonly PathSegment[]): Checked<VarRef> {
  const m = typeof v === 'string' ? /^(\$|\$\$\$)([A-Z_][A-Z0-9_]*)$/.exec(v.trim()) : null;
  if (!m) return refuse(at, `\`source\` must name a metavariable with its $ prefix (like $A or $$$ARGS); got ${JSON.stringify(v)}.`);
  return { ok: true, value: { name: m[2] as string, multi: m[1] === '$$$' } };
}

function fromObject(value: unknown, at: readonly PathSegment[]): Checked<Transformation> {
  if (!isRecord(value)) {
    return refuse(at, 'A transformation is a mapping with one of substring, replace or convert (or the string form, like `convert($A, toCase=camelCase)`).');
  }
  const keys = Object.keys(value);
  const kind = keys[0];
  if (keys.length !== 1 || kind === undefined) return refuse(at, `A transformation has exactly one of ${KINDS.join(', ')}; got ${keys.join(', ') || 'none'}.`);
  if (kind === 'rewrite') return refuse([...at, kind], NO_REWRITE, 'key');
  if (!(KINDS as readonly string[]).includes(kind)) return { ok: false, error: unknownKeys(value, KINDS, at, 'transformation') };
  const args = value[kind];
  const here = [...at, kind];
  if (!isRecord(args)) return { ok: false, error: [problem(here, `\`${kind}\` takes a mapping with its arguments.`)] };
  return build(kind as (typeof KINDS)[number], args, here);
}

const ARGS: Readonly<Record<(typeof KINDS)[number], readonly string[]>> = {
  substring: ['source', 'startChar', 'endChar'],
  replace: ['source', 'replace', 'by'],
  convert: ['source', 'toCase', 'separatedBy'],
};

function build(kind: (typeof KINDS)[number], args: Record<string, unknown>, at: readonly PathSegment[]): Checked<Transformation> {
  const problems = unknownKeys(args, ARGS[kind], at, kind);
  const source = sourceRef(args.source, [...at, 'source']);
  if (!source.ok) problems.push(...source.error);
  const int = (k: string): number | undefined => {
    const v = args[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v)) problems.push(problem([...at, k], `\`${k}\` must be an integer (negative counts from the end).`));
    return v as number;
  };
  const str = (k: string): string => {
    const v = args[k];
    if (typeof v !== 'string') problems.push(problem([...at, k], `\`${k}\` is required and must be a string.`));
    return String(v);
  };
  let t: Transformation | undefined;
  if (kind === 'substring') {
    const startChar = int('startChar');
    const endChar = int('endChar');
    if (source.ok) t = { kind, source: source.value, ...(startChar === undefined ? {} : { startChar }), ...(endChar === undefined ? {} : { endChar }) };
  } else if (kind === 'replace') {
    const replace = str('replace');
    const by = str('by');
    // napi checks the pattern as Rust reads it; a pattern JavaScript cannot run is only a limit of the nested case.
    const regex = rustRegex(replace);
    if (source.ok) t = { kind, source: source.value, replace, by, regex };
  } else {
    const toCase = args.toCase;
    if (!(STRING_CASES as readonly unknown[]).includes(toCase)) {
      problems.push(problem([...at, 'toCase'], `\`toCase\` must be one of ${STRING_CASES.join(', ')}.`));
    }
    const sep = args.separatedBy;
    if (sep !== undefined && (!Array.isArray(sep) || !sep.every((s) => (SEPARATORS as readonly unknown[]).includes(s)))) {
      problems.push(problem([...at, 'separatedBy'], `\`separatedBy\` must be a list of ${SEPARATORS.join(', ')}.`));
    }
    if (source.ok) t = { kind, source: source.value, toCase: toCase as StringCase, ...(sep === undefined ? {} : { separatedBy: sep as Separator[] }) };
  }
  if (problems.length > 0 || t === undefined) return { ok: false, error: problems };
  return { ok: true, value: t };
}

/** `replace($A, replace='\\d', by='x')`: ast-grep's string form; argument values are YAML scalars. */
function fromString(s: string, at: readonly PathSegment[]): Checked<Transformation> {
  const bad = (why: string): Checked<Transformation> => refuse(at, `Cannot read the transformation ${JSON.stringify(s)}: ${why}.`);
  const input = s.trim();
  const open = input.indexOf('(');
  if (open === -1) return bad('expected name(source, key=value, …)');
  const kind = input.slice(0, open).trim();
  if (kind === 'rewrite') return refuse(at, NO_REWRITE);
  if (!(KINDS as readonly string[]).includes(kind)) return bad(`\`${kind}\` is not one of ${KINDS.join(', ')}`);
  const rest = input.slice(open + 1).replace(/\)+$/, '');
  const comma = rest.indexOf(',');
  if (comma === -1) return bad('expected arguments after the source');
  const args: Record<string, unknown> = { source: rest.slice(0, comma).trim() };
  let tail = rest.slice(comma + 1).trim();
  while (tail !== '') {
    const eq = tail.indexOf('=');
    if (eq === -1) return bad(`expected key=value in ${JSON.stringify(tail)}`);
    const key = tail.slice(0, eq).trim();
    const next = tail.slice(eq + 1).trimStart();
    let end: number;
    const q = next[0];
    if (q === "'" || q === '"' || q === '[') {
      const close = next.indexOf(q === '[' ? ']' : q, 1);
      if (close === -1) return bad(`unclosed ${q}`);
      end = close + 1;
    } else {
      const c = next.indexOf(',');
      end = c === -1 ? next.length : c;
    }
    try {
      args[key] = parseYaml(next.slice(0, end)) as unknown;
    } catch (e) {
      return bad(`the value of ${key} is not valid (${e instanceof Error ? e.message : String(e)})`);
    }
    tail = next.slice(end).trimStart().replace(/^,/, '').trim();
  }
  return build(kind as (typeof KINDS)[number], args, at);
}

/** Transformation names in dependency order, or the name of one on a cycle. */
function topological(parsed: ReadonlyMap<string, Transformation>): (readonly [string, Transformation])[] | string {
  const order: (readonly [string, Transformation])[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string): string | null => {
    const s = state.get(name);
    if (s === 'done') return null;
    if (s === 'visiting') return name;
    const t = parsed.get(name);
    if (!t) return null;
    state.set(name, 'visiting');
    if (!t.source.multi && parsed.has(t.source.name)) {
      const cycle = visit(t.source.name);
      if (cycle) return cycle;
    }
    state.set(name, 'done');
    order.push([name, t]);
    return null;
  };
  for (const name of parsed.keys()) {
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return order;
}
