// The shape of ast-grep's rule language, checked before napi sees it, so a misspelt key is reported
// where it is (rule.inside.has.patern) with a suggestion, and every problem at once. napi then checks
// what only it knows (kind names, Rust regular expressions, utility references) per language.
import { isRecord, problem, unknownKeys, type PathSegment, type RuleProblem } from './problems.js';

export const RULE_KEYS = ['pattern', 'kind', 'regex', 'nthChild', 'range', 'inside', 'has', 'precedes', 'follows', 'all', 'any', 'not', 'matches'] as const;
const RELATION_KEYS = [...RULE_KEYS, 'stopBy', 'field'];
const RELATIONS = new Set(['inside', 'has', 'precedes', 'follows']);
const STRICTNESS = ['cst', 'smart', 'ast', 'relaxed', 'signature'];

export function checkRule(rule: unknown, path: readonly PathSegment[], relation = false): RuleProblem[] {
  if (!isRecord(rule)) return [problem(path, 'A rule is a mapping of rule keys (pattern, kind, regex, inside, has, all, any, not, matches, …).')];
  const out = unknownKeys(rule, relation ? RELATION_KEYS : RULE_KEYS, path, relation ? 'relational rule' : 'rule');
  const at = (k: string): PathSegment[] => [...path, k];
  const has = (k: string): boolean => rule[k] !== undefined;
  if (has('pattern')) out.push(...checkPattern(rule.pattern, at('pattern')));
  if (has('kind') && typeof rule.kind !== 'string') out.push(problem(at('kind'), '`kind` is the name of a node kind (a string).'));
  if (has('regex') && typeof rule.regex !== 'string') out.push(problem(at('regex'), '`regex` is a regular expression (a string).'));
  if (has('nthChild')) out.push(...checkNthChild(rule.nthChild, at('nthChild')));
  if (has('range') && !isRecord(rule.range)) out.push(problem(at('range'), '`range` is { start: { line, column }, end: { line, column } }.'));
  for (const r of RELATIONS) if (has(r)) out.push(...checkRule(rule[r], at(r), true));
  for (const list of ['all', 'any'] as const) {
    if (!has(list)) continue;
    const v = rule[list];
    if (!Array.isArray(v)) out.push(problem(at(list), `\`${list}\` is a list of rules.`));
    else v.forEach((r, i) => out.push(...checkRule(r, [...at(list), i])));
  }
  if (has('not')) out.push(...checkRule(rule.not, at('not')));
  if (has('matches') && typeof rule.matches !== 'string' && !isRecord(rule.matches)) {
    out.push(problem(at('matches'), '`matches` names a utility rule (a string), or calls one with arguments (a mapping).'));
  }
  if (relation && has('stopBy')) {
    const s = rule.stopBy;
    if (isRecord(s)) out.push(...checkRule(s, at('stopBy')));
    else if (s !== 'neighbor' && s !== 'end') out.push(problem(at('stopBy'), '`stopBy` is neighbor, end, or a rule.'));
  }
  if (relation && has('field') && typeof rule.field !== 'string') out.push(problem(at('field'), '`field` is the name of a field (a string).'));
  if (out.length === 0 && Object.keys(rule).every((k) => k === 'stopBy' || k === 'field')) {
    out.push(problem(path, `The rule has no matcher: give at least one of ${RULE_KEYS.join(', ')}.`));
  }
  return out;
}

function checkPattern(p: unknown, path: readonly PathSegment[]): RuleProblem[] {
  if (typeof p === 'string') return p.trim() === '' ? [problem(path, 'The pattern is empty.')] : [];
  if (!isRecord(p)) return [problem(path, '`pattern` is a string, or { context, selector, strictness }.')];
  const out = unknownKeys(p, ['context', 'selector', 'strictness'], path, 'pattern');
  if (typeof p.context !== 'string') out.push(problem([...path, 'context'], '`context` (the code around the pattern) is required and is a string.'));
  if (p.selector !== undefined && typeof p.selector !== 'string') out.push(problem([...path, 'selector'], '`selector` is a node kind (a string).'));
  if (p.strictness !== undefined && !STRICTNESS.includes(p.strictness as string)) {
    out.push(problem([...path, 'strictness'], `\`strictness\` is one of ${STRICTNESS.join(', ')}.`));
  }
  return out;
}

function checkNthChild(n: unknown, path: readonly PathSegment[]): RuleProblem[] {
  if (typeof n === 'number' || typeof n === 'string') return [];
  if (!isRecord(n)) return [problem(path, '`nthChild` is a number, an An+B string, or { position, ofRule, reverse }.')];
  const out = unknownKeys(n, ['position', 'ofRule', 'reverse'], path, 'nthChild');
  if (typeof n.position !== 'number' && typeof n.position !== 'string') {
    out.push(problem([...path, 'position'], '`position` (a number or an An+B string) is required.'));
  }
  if (n.ofRule !== undefined) out.push(...checkRule(n.ofRule, [...path, 'ofRule']));
  if (n.reverse !== undefined && typeof n.reverse !== 'boolean') out.push(problem([...path, 'reverse'], '`reverse` is true or false.'));
  return out;
}
