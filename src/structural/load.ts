// Loading an `astgrep` step: its rules read and checked (every problem at once, each located), the
// languages it needs made available to napi, and each rule compiled by napi for the languages it
// will run on. Nothing here touches a repository; reading the rule file is the caller's job.
import { BUILTIN_LANGUAGES } from './languages.js';
import { loadNapi, type Napi } from './napi.js';
import { ensureLanguages, registeredLanguages, type PackResolver } from './packs.js';
import type { PathSegment } from './problems.js';
import { compileRule, type CompiledRule } from './rule.js';
import { parseRuleFile, type LocatedProblem } from './rule-file.js';
import type { AstgrepProgram, ProgramRule } from './astgrep.js';
import type { Result } from '../errors.js';

export type AstgrepSource =
  /** The step's own fields: rule, fix, constraints, utils, transform, language (and files, for the caller). */
  | { readonly kind: 'inline'; readonly step: unknown }
  /** An ast-grep rule file as it is: its name (for messages) and its text. */
  | { readonly kind: 'file'; readonly file: string; readonly text: string };

export type LoadProblem =
  /** In the step's own fields: `path` points into the step object. */
  | { readonly where: 'step'; readonly path: readonly PathSegment[]; readonly at: 'key' | 'value'; readonly message: string }
  | ({ readonly where: 'rule-file' } & LocatedProblem);

export interface LoadOptions {
  /** The folder `@ast-grep/lang-*` packages resolve from, upwards (the recipe file's folder). */
  readonly fromDir: string;
  readonly napi?: Napi;
  readonly resolvePack?: PackResolver;
}

/** The compiled program, or every problem of the rule (in the step or in its rule file). */
export type Loaded = Result<AstgrepProgram, readonly LoadProblem[]>;

interface Pending {
  readonly rule: CompiledRule;
  readonly problem: (path: readonly PathSegment[], message: string) => LoadProblem;
}

export async function loadAstgrep(source: AstgrepSource, opts: LoadOptions): Promise<Loaded> {
  const pending: Pending[] = [];
  if (source.kind === 'inline') {
    const c = compileRule(source.step, { form: 'inline' });
    if (!c.ok) return { ok: false, error: c.error.map((p) => ({ where: 'step', ...p })) };
    pending.push({ rule: c.value, problem: (path, message) => ({ where: 'step', path, at: 'value', message }) });
  } else {
    const parsed = parseRuleFile(source.text, source.file);
    if (!parsed.ok) return { ok: false, error: parsed.error.map((p) => ({ where: 'rule-file', ...p })) };
    for (const r of parsed.value) pending.push({ rule: r.rule, problem: (path, message) => ({ where: 'rule-file', ...r.locate(path, message) }) });
  }
  const napi = opts.napi ?? (await loadNapi());
  const problems: LoadProblem[] = [];
  const named = pending.flatMap((p) => (p.rule.language ? [p.rule.language] : []));
  const missing = new Map(ensureLanguages(napi, named, opts.fromDir, opts.resolvePack).map((p) => [p.language, p.message]));
  const rules: ProgramRule[] = [];
  for (const p of pending) {
    const lang = p.rule.language;
    if (lang !== null && missing.has(lang)) {
      problems.push(p.problem(['language'], missing.get(lang) as string));
      continue;
    }
    const candidates = lang !== null ? [lang] : [...Object.keys(BUILTIN_LANGUAGES), ...registeredLanguages().keys()];
    const usable = new Set<string>();
    let firstError: string | null = null;
    for (const l of candidates) {
      const why = napiCheck(napi, p.rule, l);
      if (why === null) usable.add(l);
      else firstError ??= why;
    }
    if (usable.size === 0) {
      const why = firstError ?? 'unknown reason';
      problems.push(p.problem(napiPath(why), `ast-grep rejects the rule${lang ? ` for ${lang}` : ''}: ${why}`));
    } else rules.push({ rule: p.rule, languages: usable });
  }
  if (problems.length > 0) return { ok: false, error: problems };
  const extensions = new Map<string, string>();
  const used = new Set(rules.flatMap((r) => [...r.languages]));
  for (const l of used) {
    const exts = BUILTIN_LANGUAGES[l]?.extensions ?? registeredLanguages().get(l)?.extensions ?? [];
    for (const e of exts) if (!extensions.has(e.toLowerCase())) extensions.set(e.toLowerCase(), l);
  }
  return { ok: true, value: { napi, rules, extensions } };
}

/** napi's own verdict on the rule in one language: null when it compiles, else its message. */
function napiCheck(napi: Napi, rule: CompiledRule, language: string): string | null {
  const napiName = BUILTIN_LANGUAGES[language]?.napi ?? language;
  try {
    napi
      .parse(napiName as never, '')
      .root()
      .findAll(rule.config as never);
    return null;
  } catch (e) {
    // napi nests its reasons as "first.\n |->second\n |->third": one sentence reads better.
    return (e instanceof Error ? e.message : String(e))
      .split(/\n\s*\|->/)
      .map((s) => s.trim().replace(/\.$/, ''))
      .join(': ');
  }
}

/** napi names the section at fault first ("`transform` is not configured correctly"). */
function napiPath(message: string): PathSegment[] {
  const m = /^`(rule|constraints|utils|transform)`/.exec(message);
  return [m ? (m[1] as string) : 'rule'];
}
