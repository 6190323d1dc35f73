// One ast-grep rule, read and checked: the step's inline fields (rule, fix, constraints, utils,
// transform, language) or one document of a rule file (the same plus id, message, files, …). Every
// problem is returned at once, each with the path of the field at fault.
import { canonicalLanguage } from './languages.js';
import { prefilter, prefilterText, requirementOf, type Requirement } from './prefilter.js';
import { isRecord, problem, unknownKeys, type Checked, type PathSegment, type RuleProblem } from './problems.js';
import { checkRule } from './rule-keys.js';
import { parseTemplate, type Template } from './template.js';
import { parseTransforms, type Transforms } from './transform.js';

/** How a fix widens the replaced range to neighbours matching a rule (ast-grep's expandStart/expandEnd). */
export interface Expansion {
  readonly rule: Record<string, unknown>;
  readonly stopBy: 'neighbor' | 'end' | Record<string, unknown>;
}

export interface Fix {
  readonly template: Template;
  readonly expandStart: Expansion | null;
  readonly expandEnd: Expansion | null;
}

export interface CompiledRule {
  /** The rule file's `id`; null for a step's inline rule. */
  readonly id: string | null;
  /** Canonical language name, or null: each file's own language, by its extension. */
  readonly language: string | null;
  /** What napi's findAll takes (the language comes from the parsed file). */
  readonly config: {
    readonly rule: Record<string, unknown>;
    readonly constraints?: Record<string, unknown>;
    readonly utils?: Record<string, unknown>;
    readonly transform?: Record<string, unknown>;
  };
  /** Null: the rule only counts matches. */
  readonly fix: Fix | null;
  readonly transforms: Transforms;
  /** The top-level pattern text, when the rule has one (punctuation it names is not kept back). */
  readonly pattern: string | null;
  readonly requirement: Requirement;
  /** False when the file's bytes show the rule cannot match (see prefilter.ts). */
  readonly mayMatch: (bytes: Uint8Array) => boolean;
  /** The same test on decoded text. */
  readonly mayMatchText: (text: string) => boolean;
  /** A rule file's own `files`/`ignores` globs, for the caller to apply; null when it names none. */
  readonly globs: { readonly include: readonly string[]; readonly exclude: readonly string[] } | null;
}

/** Keys a rule file document may hold. `rewriters` is refused with its own message. */
const DOCUMENT_KEYS = ['id', 'language', 'rule', 'constraints', 'utils', 'transform', 'fix', 'files', 'ignores'].concat(
  // Read by editors and ast-grep's reports; a batch run has no use for them but accepts them.
  ['message', 'severity', 'note', 'url', 'metadata', 'labels'],
);
/** Keys of the step's inline form (files narrows the selection and belongs to the caller). */
export const INLINE_KEYS = ['rule', 'fix', 'constraints', 'utils', 'transform', 'language', 'files'];

export interface CompileOptions {
  /** Which keys the object may hold: the inline step form, or a rule file document. */
  readonly form: 'inline' | 'document';
  /** Where the object sits, prefixed to every problem's path. */
  readonly path?: readonly PathSegment[];
}

export function compileRule(input: unknown, opts: CompileOptions): Checked<CompiledRule> {
  const base = opts.path ?? [];
  const at = (...p: PathSegment[]): PathSegment[] => [...base, ...p];
  if (!isRecord(input)) return { ok: false, error: [problem(base, 'An ast-grep rule is a mapping with at least `rule`.')] };
  const problems: RuleProblem[] = [];
  if (opts.form === 'document' && input.rewriters !== undefined) {
    const message = '`rewriters` (and the `rewrite` transformation) are not supported by scion yet: express each rewriter as its own rule, in order.';
    problems.push(problem(at('rewriters'), message, 'key'));
  }
  const known = opts.form === 'inline' ? INLINE_KEYS : DOCUMENT_KEYS;
  const rest = Object.fromEntries(Object.entries(input).filter(([k]) => k !== 'rewriters'));
  problems.push(...unknownKeys(rest, known, base, opts.form === 'inline' ? 'astgrep' : 'rule file'));
  if (input.rule === undefined) problems.push(problem(at('rule'), 'Give the rule to match: `rule: { pattern: ... }` (or any ast-grep rule object).'));
  else problems.push(...checkRule(input.rule, at('rule')));
  const constraints = ruleMap(input.constraints, at('constraints'), 'constraints', problems);
  const utils = ruleMap(input.utils, at('utils'), 'utils', problems);
  const transforms = parseTransforms(input.transform, at('transform'));
  if (!transforms.ok) problems.push(...transforms.error);
  let language: string | null = null;
  if (input.language !== undefined) {
    if (typeof input.language === 'string' && input.language.trim() !== '') language = canonicalLanguage(input.language);
    else problems.push(problem(at('language'), '`language` is a language name (typescript, tsx, javascript, html, css, python, go, …).'));
  } else if (opts.form === 'document') problems.push(problem(at('language'), 'A rule file names its `language` (typescript, tsx, javascript, python, …).'));
  const id = input.id === undefined ? null : String(input.id);
  const fix = parseFix(input.fix, at('fix'), transforms.ok ? new Set(transforms.value.order.map(([n]) => n)) : new Set(), problems);
  const globs = opts.form === 'document' ? parseGlobs(input, base, problems) : null;
  if (problems.length > 0 || !transforms.ok || !isRecord(input.rule)) return { ok: false, error: problems };
  const rule = input.rule;
  const requirement = requirementOf(rule, utils ?? {});
  const p = rule.pattern;
  const pattern = typeof p === 'string' ? p : isRecord(p) && p.selector === undefined ? String(p.context) : null;
  return {
    ok: true,
    value: {
      id,
      language,
      config: {
        rule,
        ...(constraints ? { constraints } : {}),
        ...(utils ? { utils } : {}),
        ...(input.transform !== undefined ? { transform: transforms.value.raw } : {}),
      },
      fix,
      transforms: transforms.value,
      pattern,
      requirement,
      mayMatch: prefilter(requirement),
      mayMatchText: prefilterText(requirement),
      globs,
    },
  };
}

function ruleMap(v: unknown, path: PathSegment[], what: string, problems: RuleProblem[]): Record<string, unknown> | undefined {
  if (v === undefined) return undefined;
  if (!isRecord(v)) {
    problems.push(problem(path, `\`${what}\` is a mapping of names to rules.`));
    return undefined;
  }
  for (const [k, r] of Object.entries(v)) problems.push(...checkRule(r, [...path, k]));
  return v;
}

function parseFix(v: unknown, path: PathSegment[], transformed: ReadonlySet<string>, problems: RuleProblem[]): Fix | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return { template: parseTemplate(v, transformed), expandStart: null, expandEnd: null };
  if (Array.isArray(v)) {
    problems.push(problem(path, 'A list of fixes offers choices to an editor; a batch run needs one: give `fix` as a single template.'));
    return null;
  }
  if (!isRecord(v)) {
    problems.push(problem(path, '`fix` is a template string, or { template, expandStart, expandEnd }.'));
    return null;
  }
  problems.push(...unknownKeys(v, ['template', 'expandStart', 'expandEnd', 'title'], path, 'fix'));
  if (typeof v.template !== 'string') problems.push(problem([...path, 'template'], '`template` (the replacement text) is required and is a string.'));
  const expansion = (key: 'expandStart' | 'expandEnd'): Expansion | null => {
    const e = v[key];
    if (e === undefined) return null;
    const found = checkRule(e, [...path, key], true);
    problems.push(...found);
    if (found.length > 0 || !isRecord(e)) return null;
    const { stopBy, ...rule } = e;
    return { rule, stopBy: stopBy === 'end' ? 'end' : isRecord(stopBy) ? stopBy : 'neighbor' };
  };
  const expandStart = expansion('expandStart');
  const expandEnd = expansion('expandEnd');
  if (typeof v.template !== 'string') return null;
  return { template: parseTemplate(v.template, transformed), expandStart, expandEnd };
}

function parseGlobs(input: Record<string, unknown>, base: readonly PathSegment[], problems: RuleProblem[]): CompiledRule['globs'] {
  const list = (key: 'files' | 'ignores'): string[] | undefined => {
    const v = input[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || !v.every((g) => typeof g === 'string')) {
      problems.push(problem([...base, key], `\`${key}\` is a list of glob patterns.`));
      return undefined;
    }
    return v as string[];
  };
  const include = list('files');
  const exclude = list('ignores');
  if (include === undefined && exclude === undefined) return null;
  return { include: include ?? ['**'], exclude: exclude ?? [] };
}
