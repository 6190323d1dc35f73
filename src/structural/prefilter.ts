// Which files a rule can possibly match, decided on the file's bytes before anything is parsed.
// Parsing is most of the cost of a structural step, and most files of a repository hold no match.
//
// A pattern matched in ast-grep's default ("smart") or "cst" strictness must meet every one of its
// words in the source, verbatim: the words become required literals. A relational sub-rule (inside,
// has, precedes, follows) must match some node of the file too, so its words are required as well;
// `all` needs all of its parts, `any` one of them, `not` and the text-free keys (kind, regex,
// nthChild, range) nothing. Where the rule does not allow the conclusion, nothing is required.
import { isRecord } from './problems.js';

export type Requirement =
  | { readonly kind: 'none' }
  | { readonly kind: 'words'; readonly words: readonly string[] }
  | { readonly kind: 'and'; readonly of: readonly Requirement[] }
  | { readonly kind: 'or'; readonly of: readonly Requirement[] };

const NONE: Requirement = { kind: 'none' };

export function requirementOf(rule: unknown, utils: Record<string, unknown>): Requirement {
  return simplify(req(rule, utils, new Set()));
}

function req(rule: unknown, utils: Record<string, unknown>, seen: ReadonlySet<string>): Requirement {
  if (!isRecord(rule)) return NONE;
  const parts: Requirement[] = [];
  const pattern = rule.pattern;
  if (typeof pattern === 'string') parts.push(words(pattern));
  else if (isRecord(pattern) && typeof pattern.context === 'string' && pattern.selector === undefined) {
    const strictness = pattern.strictness ?? 'smart';
    if (strictness === 'smart' || strictness === 'cst') parts.push(words(pattern.context));
  }
  for (const rel of ['inside', 'has', 'precedes', 'follows'] as const) if (rule[rel] !== undefined) parts.push(req(rule[rel], utils, seen));
  if (Array.isArray(rule.all)) for (const r of rule.all) parts.push(req(r, utils, seen));
  if (Array.isArray(rule.any)) parts.push({ kind: 'or', of: rule.any.map((r) => req(r, utils, seen)) });
  if (typeof rule.matches === 'string' && !seen.has(rule.matches) && Object.hasOwn(utils, rule.matches)) {
    parts.push(req(utils[rule.matches], utils, new Set(seen).add(rule.matches)));
  }
  return { kind: 'and', of: parts };
}

/** Identifiers of a pattern, metavariables left out: words that must appear in a matching file. */
function words(pattern: string): Requirement {
  const out = new Set<string>();
  for (const w of pattern.split(/[^A-Za-z0-9_$]+/)) {
    if (w.length < 2 || w.includes('$') || /^\d/.test(w)) continue;
    out.add(w);
  }
  return out.size === 0 ? NONE : { kind: 'words', words: [...out] };
}

function simplify(r: Requirement): Requirement {
  if (r.kind === 'or') {
    const of = r.of.map(simplify);
    // One alternative that needs nothing makes the whole choice free.
    if (of.length === 0 || of.some((x) => x.kind === 'none')) return NONE;
    return of.length === 1 ? (of[0] as Requirement) : { kind: 'or', of };
  }
  if (r.kind === 'and') {
    const words = new Set<string>();
    const rest: Requirement[] = [];
    for (const part of r.of.map(simplify)) {
      if (part.kind === 'words') for (const w of part.words) words.add(w);
      else if (part.kind === 'and') rest.push(...part.of);
      else if (part.kind === 'or') rest.push(part);
    }
    const of = words.size > 0 ? [{ kind: 'words', words: [...words] } as Requirement, ...rest] : rest;
    if (of.length === 0) return NONE;
    return of.length === 1 ? (of[0] as Requirement) : { kind: 'and', of };
  }
  return r;
}

/** A test over a file's bytes: false means the rule cannot match it. UTF-16 files always pass. */
export function prefilter(r: Requirement): (bytes: Uint8Array) => boolean {
  if (r.kind === 'none') return () => true;
  const test = compile(r);
  return (bytes) => {
    if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return true;
    return test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  };
}

/** The same test over decoded text (a file an earlier rule of the step already rewrote). */
export function prefilterText(r: Requirement): (text: string) => boolean {
  const test = (q: Requirement): ((t: string) => boolean) => {
    switch (q.kind) {
      case 'none':
        return () => true;
      case 'words':
        return (t) => q.words.every((w) => t.includes(w));
      case 'and': {
        const parts = q.of.map(test);
        return (t) => parts.every((p) => p(t));
      }
      case 'or': {
        const parts = q.of.map(test);
        return (t) => parts.some((p) => p(t));
      }
    }
  };
  return test(r);
}

function compile(r: Requirement): (b: Buffer) => boolean {
  switch (r.kind) {
    case 'none':
      return () => true;
    case 'words': {
      const needles = r.words.map((w) => Buffer.from(w, 'utf8'));
      return (b) => needles.every((n) => b.includes(n));
    }
    case 'and': {
      const parts = r.of.map(compile);
      return (b) => parts.every((t) => t(b));
    }
    case 'or': {
      const parts = r.of.map(compile);
      return (b) => parts.some((t) => t(b));
    }
  }
}
