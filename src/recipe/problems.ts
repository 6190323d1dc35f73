// Recipe problems: zod issues turned into one readable line each, with the path of the field at fault.
import type { z } from 'zod';
import { recipeJsonSchema } from './json-schema.js';
import { STEP_KINDS } from './schema-steps.js';

/** One thing wrong with a recipe file. `line` and `col` are 1-based; `path` is "" for the whole file. */
export interface Problem {
  file: string;
  line: number;
  col: number;
  path: string;
  message: string;
}

export type PathSegment = string | number;

/** A problem before it has a position: `at: 'key'` points at a mapping key (unknown keys), else at the value. */
export interface RawProblem {
  readonly path: readonly PathSegment[];
  readonly message: string;
  readonly at: 'key' | 'value';
}

/** "recipes/x.yaml:12:5: steps[2].edit.file: Required" */
export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.path ? `${p.path}: ` : ''}${p.message}`;
}

/** ['steps', 2, 'edit', 'file'] → "steps[2].edit.file" */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  return out;
}

/** Per-parse message overrides: a missing field reads "Required", as users know it from zod 3 and most tools. */
export function parseErrorMap(issue: { code?: string; input?: unknown }): string | undefined {
  return issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined;
}

function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PathSegment, unknown>)[seg];
  }
  return v;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A union branch is the one the user meant unless it fails at the value itself (wrong type, unknown
 * keys) or lacks a key the input does not hold at all: that key is what tells branches apart.
 */
function branchFits(branch: readonly z.core.$ZodIssue[], value: unknown): boolean {
  return branch.every((i) => {
    if (i.path.length === 0) return false;
    if (i.path.length === 1) return !(isRecord(value) && value[i.path[0] as string] === undefined);
    return true;
  });
}

/** Flattens zod issues into problems: one per unknown key, unions resolved to the branch the user meant. */
export function issuesToProblems(issues: readonly z.core.$ZodIssue[], data: unknown, prefix: readonly PathSegment[] = []): RawProblem[] {
  const out: RawProblem[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path.map((s) => (typeof s === 'symbol' ? String(s) : s))];
    if (issue.code === 'unrecognized_keys') {
      const twoKinds = stepWithSeveralKinds(path, valueAt(data, path));
      if (twoKinds) {
        out.push({ path, message: twoKinds, at: 'value' });
        continue;
      }
      for (const key of issue.keys) {
        const near = closest(key, knownKeys(path));
        out.push({ path: [...path, key], message: `unknown key "${key}"${near ? `; did you mean "${near}"?` : ''}`, at: 'key' });
      }
    } else if (issue.code === 'invalid_union') {
      const value = valueAt(data, path);
      const meant = issue.errors.find((branch) => branchFits(branch, value));
      if (meant) out.push(...issuesToProblems(meant, data, path));
      else {
        const found = isRecord(value) ? ` (found: ${Object.keys(value).join(', ') || 'nothing'})` : '';
        // `rnu:` in a step: name the kind that was meant.
        const meantKind =
          isRecord(value) && path.length === 2 && path[0] === 'steps'
            ? Object.keys(value)
                .map((k) => closest(k, STEP_KINDS))
                .find((k) => k !== null)
            : undefined;
        out.push({ path, message: issue.message + found + (meantKind ? `; did you mean "${meantKind}"?` : ''), at: 'value' });
      }
    } else {
      out.push({ path, message: issue.message, at: 'value' });
    }
  }
  return out;
}

/**
 * zod reports `{ edit: {...}, write: {...} }` as an unknown key of whichever branch fits otherwise;
 * the real mistake is two kinds in one step.
 */
function stepWithSeveralKinds(path: readonly PathSegment[], value: unknown): string | null {
  if (path.length !== 2 || path[0] !== 'steps' || !isRecord(value)) return null;
  const kinds = Object.keys(value).filter((k) => (STEP_KINDS as readonly string[]).includes(k));
  if (kinds.length < 2) return null;
  return `a step has exactly one of the keys ${STEP_KINDS.join(', ')}; split this one into ${kinds.length} steps (found: ${kinds.join(', ')})`;
}

type JsonNode = { properties?: Record<string, JsonNode>; items?: JsonNode; anyOf?: JsonNode[]; oneOf?: JsonNode[] };

let schemaRoot: JsonNode | undefined;

/** The keys the recipe format allows in the mapping at `path`, read off the JSON Schema. */
function knownKeys(path: readonly PathSegment[]): string[] {
  schemaRoot ??= recipeJsonSchema() as JsonNode;
  let nodes: JsonNode[] = [schemaRoot];
  const expand = (ns: JsonNode[]): JsonNode[] => ns.flatMap((n) => [n, ...expand([...(n.anyOf ?? []), ...(n.oneOf ?? [])])]);
  for (const seg of path) {
    nodes = expand(nodes).flatMap((n) => {
      const next = typeof seg === 'number' ? n.items : n.properties?.[seg];
      return next ? [next] : [];
    });
  }
  const keys = new Set(expand(nodes).flatMap((n) => Object.keys(n.properties ?? {})));
  // Module recipes may hold transform steps, which the file formats' schema leaves out.
  if (path.length === 2 && path[0] === 'steps') for (const k of STEP_KINDS) keys.add(k);
  return [...keys];
}

/** The known key nearest to a mistyped one (edit distance with transpositions), when near enough. */
export function closest(typed: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(typed.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  const limit = Math.max(1, Math.min(3, Math.floor(typed.length / 3)));
  return best !== null && bestD <= limit ? best : null;
}

function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
