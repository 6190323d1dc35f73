// When a file's diff is too big to read in place: a lock file, a generated or minified file, or a
// change of thousands of lines. The terminal cuts such a diff with a line saying how much was left
// out; the HTML report collapses it behind an "open" control. One rule for both.
import type { FileReport } from '../model/types.js';

/** Diff lines (context included) past which any file is collapsed. */
export const BIG_DIFF_LINES = 1_000;
/** Diff lines past which a lock, generated or minified file is collapsed: nobody reviews those line by line. */
export const GENERATED_DIFF_LINES = 40;
/** What the terminal still shows of a big diff that is not generated: its beginning. */
export const BIG_DIFF_SHOWN = 100;

const LOCK_FILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'deno.lock',
  'cargo.lock',
  'gemfile.lock',
  'composer.lock',
  'poetry.lock',
  'pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'go.sum',
  'packages.lock.json',
  'paket.lock',
  'podfile.lock',
  'pubspec.lock',
  'mix.lock',
  'flake.lock',
  'gradle.lockfile',
  'package.resolved',
  '.terraform.lock.hcl',
]);

/** 'lock file', 'generated file', 'minified file', or null for a file a person wrote. */
export function generatedKind(path: string): string | null {
  const name = (path.split('/').pop() ?? path).toLowerCase();
  if (LOCK_FILES.has(name) || name.endsWith('.lock')) return 'lock file';
  if (/\.min\.(js|css|mjs)$/.test(name) || /\.(js|css)\.map$/.test(name)) return 'minified file';
  if (/(^|\/)(dist|vendor|node_modules|__generated__|generated)\//i.test(path) || /\.(generated|gen|pb)\.[a-z]+$/.test(name) || name.endsWith('_pb2.py')) {
    return 'generated file';
  }
  return null;
}

/** Lines of the file's unified diff (context and `\ No newline` lines included). */
export function diffLineCount(f: FileReport): number {
  return (f.hunks ?? []).reduce((n, h) => n + h.lines.length, 0);
}

export interface BigDiff {
  /** Its diff lines. */
  readonly lines: number;
  /** 'lock file', 'generated file', 'minified file', or 'large diff'. */
  readonly reason: string;
  /** Diff lines the terminal still shows before the cut (0 for generated files). */
  readonly shown: number;
}

/** Why this file's diff is collapsed, or null when it is read in full. */
export function bigDiff(f: FileReport): BigDiff | null {
  const lines = diffLineCount(f);
  const kind = generatedKind(f.path);
  if (kind !== null && lines > GENERATED_DIFF_LINES) return { lines, reason: kind, shown: 0 };
  if (lines > BIG_DIFF_LINES) return { lines, reason: 'large diff', shown: BIG_DIFF_SHOWN };
  return null;
}

/** What the reader is told about a file whose diff is not text (nothing) or is not UTF-8 text. */
export function encodingNote(f: FileReport): string | null {
  if (f.hunks === undefined) return 'binary file, or text in an encoding other than UTF-8/UTF-16: no text diff';
  if (f.encoding === 'utf16le') return 'UTF-16 text: git shows it as binary';
  if (f.encoding === 'utf8-bom') return 'UTF-8 with a byte-order mark';
  return null;
}
