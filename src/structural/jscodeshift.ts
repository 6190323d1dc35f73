// The `jscodeshift` engine: an existing jscodeshift transform (react-codemod, next, mui, storybook
// codemods all have this shape), run in process and unchanged, called as jscodeshift's own runner
// (src/Worker.js) calls it: transform({ path, source }, { jscodeshift, j, stats, report }, options).
// jscodeshift itself (babel, recast: heavy) is loaded on first use.
//
// The transform sees the file as LF text without its BOM; what it returns is written back in the
// file's own encoding, BOM and line endings, splicing the changed lines only.
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { failure, fail, ok, type Result } from '../errors.js';
import type { Change } from '../core/edit/regions.js';
import { decodeAt } from '../core/engine/checks.js';
import { toLF } from '../core/text/line-endings.js';
import { spliceBytes } from '../core/text/splice-bytes.js';
import { lineChanges } from './line-changes.js';
import { loadOnce } from '../util/load-once.js';

export const PARSERS = ['babel', 'babylon', 'flow', 'ts', 'tsx'] as const;
export type ParserName = (typeof PARSERS)[number];

/** The extensions (no dot) each parser reads: the files a jscodeshift step offers its transform. */
export function parserExtensions(parser: ParserName): readonly string[] {
  switch (parser) {
    case 'ts':
      return ['ts', 'mts', 'cts'];
    case 'tsx':
      return ['tsx', 'ts', 'mts', 'cts'];
    default:
      return ['js', 'jsx', 'mjs', 'cjs'];
  }
}

type TransformFn = (file: { path: string; source: string }, api: Record<string, unknown>, options: Record<string, unknown>) => unknown;

export interface LoadedTransform {
  /** As the step names it (a path relative to the recipe, or a package specifier). */
  readonly specifier: string;
  /** The module file it resolved to. */
  readonly file: string;
  readonly fn: TransformFn;
  /** The module's own `parser` export: a parser name, or a parser object ({ parse }). */
  readonly parser: string | { parse: (source: string) => unknown } | null;
}

/** The loaded transform, or why it cannot be used (one sentence). */
export type TransformLoad = Result<LoadedTransform, string>;

/**
 * Loads a transform module: a path (relative to `fromDir`) or a package specifier resolved from
 * `fromDir` upwards. TypeScript and ES-module syntax load through tsx, as module recipes do; a
 * CommonJS file inside a `"type": "module"` package is loaded as CommonJS, which is what jscodeshift's
 * babel hook does for it.
 */
export async function loadTransform(specifier: string, dir: string): Promise<TransformLoad> {
  const fromDir = resolve(dir);
  const resolved = resolveTransform(specifier, fromDir);
  if (!resolved.ok) return resolved;
  const file = resolved.value;
  let mod: unknown;
  try {
    const { tsImport } = await import('tsx/esm/api');
    mod = await tsImport(pathToFileURL(file).href, pathToFileURL(join(fromDir, 'recipe.js')).href);
  } catch (e) {
    if (!isCommonJsInEsm(e)) return { ok: false, error: `The jscodeshift transform ${specifier} could not be loaded: ${firstLine(e)}` };
    try {
      const cjs = await import('tsx/cjs/api');
      mod = { default: cjs.require(file, pathToFileURL(file).href) as unknown };
    } catch (e2) {
      return { ok: false, error: `The jscodeshift transform ${specifier} could not be loaded: ${firstLine(e2)}` };
    }
  }
  // tsx wraps a CommonJS module as { default: module.exports }; an ES module's default export may sit one level down.
  const outer = (mod as { default?: unknown }).default ?? mod;
  const m = outer as { default?: unknown; parser?: unknown };
  const fn = typeof m.default === 'function' ? m.default : outer;
  if (typeof fn !== 'function') {
    const message = `The jscodeshift transform ${specifier} has no default export: export the transform function (export default, or module.exports =).`;
    return { ok: false, error: message };
  }
  const parser = m.parser ?? (mod as { parser?: unknown }).parser ?? null;
  if (parser !== null && typeof parser !== 'string' && typeof (parser as { parse?: unknown }).parse !== 'function') {
    return { ok: false, error: `The jscodeshift transform ${specifier} exports a \`parser\` that is neither a parser name nor an object with parse().` };
  }
  return { ok: true, value: { specifier, file, fn: fn as TransformFn, parser: parser as LoadedTransform['parser'] } };
}

function resolveTransform(specifier: string, fromDir: string): Result<string, string> {
  const req = createRequire(join(fromDir, 'recipe.js'));
  const relative = specifier.startsWith('.') || isAbsolute(specifier);
  try {
    return ok(req.resolve(relative ? resolve(fromDir, specifier) : specifier));
  } catch {
    return {
      ok: false,
      error: relative
        ? `The jscodeshift transform ${specifier} does not exist (looked for it relative to ${fromDir}).`
        : `The jscodeshift transform ${specifier} is not an installed package from ${fromDir}: install the package that holds it.`,
    };
  }
}

function isCommonJsInEsm(e: unknown): boolean {
  return e instanceof ReferenceError && /\b(module|require|exports) is not defined/.test(e.message);
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}

interface Core {
  withParser(parser: unknown): unknown;
}

type GetParser = (name: string, options?: unknown) => unknown;
/** jscodeshift and its parser factory, loaded once, on first use (both are CommonJS); again after a failed load. */
const jscodeshift = loadOnce(async (): Promise<{ core: Core; getParser: GetParser }> => {
  // Specifiers through a variable: jscodeshift ships no types, and none are needed for two calls.
  const pkg: string = 'jscodeshift';
  const core = (await import(pkg)) as { default: Core };
  const getParser = (await import(`${pkg}/src/getParser.js`)) as { default: GetParser };
  return { core: core.default, getParser: getParser.default };
});

export type TransformOutcome =
  | {
      readonly status: 'changed';
      readonly after: Uint8Array;
      readonly oldText: string;
      readonly newText: string;
      readonly changes: readonly Change[];
      /** What the transform passed to api.report(). */
      readonly reports: readonly string[];
    }
  | { readonly status: 'unchanged'; readonly reports: readonly string[] };

export interface RunOptions {
  /** The step's parser; else the module's `parser` export; else babel. */
  readonly parser?: ParserName;
  /** The transform's third argument. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** Runs the transform on one file. Its throw is a `transform` failure naming the file and the message. */
export async function runTransformOn(
  t: LoadedTransform,
  file: { readonly path: string; readonly bytes: Uint8Array },
  opts: RunOptions = {},
): Promise<Result<TransformOutcome>> {
  const decoded = decodeAt(file.path, file.bytes);
  if (!decoded.ok) return decoded;
  const d = decoded.value;
  const { core, getParser } = await jscodeshift();
  // The step's parser, else the module's (a name or a parser object), else babel.
  const chosen = opts.parser ?? t.parser ?? 'babel';
  const j = core.withParser(typeof chosen === 'string' ? getParser(chosen) : chosen);
  const reports: string[] = [];
  const api = { j, jscodeshift: j, stats: () => {}, report: (msg: unknown) => reports.push(String(msg)) };
  // jscodeshift's runner passes its own options, where `parser` is the --parser flag (babel by default).
  const options = { parser: opts.parser ?? 'babel', ...(opts.options ?? {}) };
  let out: unknown;
  try {
    out = await t.fn({ path: file.path, source: d.text }, api, options);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return fail(failure('transform', `The jscodeshift transform ${t.specifier} threw on ${file.path}: ${why}`, { path: file.path, transform: t.specifier }));
  }
  // As jscodeshift's runner: a falsy result (undefined, null, '') or the same text leaves the file alone.
  if (!out || out === d.text) return ok({ status: 'unchanged', reports });
  if (typeof out !== 'string') {
    return fail(
      failure(
        'transform',
        `The jscodeshift transform ${t.specifier} returned ${describe(out)} for ${file.path}; ` +
          'it must return the new source as a string, or undefined to leave the file alone.',
        { path: file.path, transform: t.specifier },
      ),
    );
  }
  const newText = toLF(out);
  if (newText === d.text) return ok({ status: 'unchanged', reports });
  const changes = lineChanges(d.text, newText);
  return ok({ status: 'changed', after: spliceBytes(file.bytes, d, changes), oldText: d.text, newText, changes, reports });
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}
