// Languages beyond napi's five, from `@ast-grep/lang-<name>` packages: each ships prebuilt parsers in
// its tarball and exports { libraryPath, extensions, languageSymbol, expandoChar }, which is what
// napi's registerDynamicLanguage takes. They resolve from a folder upwards (the recipe file's folder),
// as a module recipe's imports do.
//
// napi accepts ONE registration per process: a second call is silently ignored, in every thread.
// So the first call registers the languages asked for plus every other known pack that resolves
// from the same folder, and this module remembers what was registered (the one piece of module
// state here, mirroring the native library's own). A later request for a language that missed the
// first call is answered with a problem that says so, never with a parser that silently is not there.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isBuiltin } from './languages.js';
import type { Napi } from './napi.js';

/** What an @ast-grep/lang-* package exports. */
export interface PackExports {
  readonly libraryPath: string;
  readonly extensions: readonly string[];
  readonly languageSymbol?: string;
  readonly expandoChar?: string;
  readonly metaVarChar?: string;
}

/** Loads a package from a folder upwards; null when it is not installed there. Injectable for tests. */
export type PackResolver = (packageName: string, fromDir: string) => PackExports | null;

/** The packs published under @ast-grep/lang-*, tried at the first registration. */
const KNOWN_PACKS = [
  'angular',
  'bash',
  'c',
  'cpp',
  'csharp',
  'dart',
  'elixir',
  'go',
  'haskell',
  'java',
  'json',
  'kotlin',
  'lua',
  'markdown',
  'php',
  'python',
  'ruby',
  'rust',
  'scala',
  'sql',
  'swift',
  'toml',
  'yaml',
] as const;

export function packageFor(language: string): string {
  return `@ast-grep/lang-${language}`;
}

export function installHint(language: string): string {
  return `npm install --save-dev ${packageFor(language)}`;
}

export const requirePack: PackResolver = (packageName, fromDir) => {
  const req = createRequire(join(fromDir, 'noop.js'));
  let path: string;
  try {
    path = req.resolve(packageName);
  } catch {
    return null;
  }
  const mod = req(path) as PackExports & { default?: PackExports };
  return mod.default ?? mod;
};

interface Registered {
  readonly extensions: readonly string[];
}

// The languages napi holds for this process (see the header): null until the one registration.
let registered: Map<string, Registered> | null = null;

export interface PackProblem {
  readonly language: string;
  readonly message: string;
}

/**
 * Makes sure napi can parse each language: built-ins need nothing; others are registered from their
 * packages (resolved from `fromDir` upwards). Returns one problem per language that cannot be had.
 */
export function ensureLanguages(napi: Napi, languages: readonly string[], fromDir: string, resolve: PackResolver = requirePack): PackProblem[] {
  const wanted = [...new Set(languages.filter((l) => !isBuiltin(l)))];
  if (wanted.length === 0) return [];
  if (registered !== null) {
    const held = registered;
    return wanted
      .filter((l) => !held.has(l))
      .map((l) => ({
        language: l,
        message:
          `The ${l} language is not available: this process registered its ast-grep languages already (napi allows that once) ` +
          `and ${packageFor(l)} was not among them. Install it with \`${installHint(l)}\` next to the first recipe, or run this recipe on its own.`,
      }));
  }
  const problems: PackProblem[] = [];
  const found = new Map<string, PackExports>();
  for (const l of wanted) {
    const pack = loadPack(l, fromDir, resolve);
    if (typeof pack === 'string') problems.push({ language: l, message: pack });
    else found.set(l, pack);
  }
  if (problems.length > 0) return problems;
  // Everything else that resolves comes along: it is the only chance to register it.
  for (const l of KNOWN_PACKS) {
    if (found.has(l) || isBuiltin(l)) continue;
    const pack = loadPack(l, fromDir, resolve);
    if (typeof pack !== 'string') found.set(l, pack);
  }
  const regs: Record<string, { libraryPath: string; extensions: string[]; languageSymbol?: string; expandoChar?: string; metaVarChar?: string }> = {};
  for (const [name, p] of found) {
    regs[name] = {
      libraryPath: p.libraryPath,
      extensions: [...p.extensions],
      ...(p.languageSymbol ? { languageSymbol: p.languageSymbol } : {}),
      ...(p.expandoChar ? { expandoChar: p.expandoChar } : {}),
      ...(p.metaVarChar ? { metaVarChar: p.metaVarChar } : {}),
    };
  }
  napi.registerDynamicLanguage(regs);
  registered = new Map([...found].map(([name, p]) => [name, { extensions: [...p.extensions] }]));
  return [];
}

/** The registered (non built-in) languages and their extensions. */
export function registeredLanguages(): ReadonlyMap<string, Registered> {
  return registered ?? new Map();
}

function loadPack(language: string, fromDir: string, resolve: PackResolver): PackExports | string {
  const name = packageFor(language);
  let pack: PackExports | null;
  try {
    pack = resolve(name, fromDir);
  } catch (e) {
    return `${name} could not be loaded from ${fromDir}: ${e instanceof Error ? e.message : String(e)}. Reinstall it with \`${installHint(language)}\`.`;
  }
  if (pack === null) {
    const where = `which is not installed in ${fromDir} or any folder above it`;
    return `The ${language} language needs the ${name} package, ${where}: install it with \`${installHint(language)}\`.`;
  }
  let unusable: string | null;
  try {
    // The getter finds the prebuilt parser for this platform; it throws when the tarball has none.
    unusable = typeof pack.libraryPath === 'string' && Array.isArray(pack.extensions) ? null : 'it does not export libraryPath and extensions';
  } catch (e) {
    unusable = e instanceof Error ? e.message : String(e);
  }
  if (unusable !== null) return `${name} has no parser usable here (${unusable}): reinstall it with \`${installHint(language)}\`.`;
  return pack;
}
