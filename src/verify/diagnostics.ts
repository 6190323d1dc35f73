// A failed verify command's output → diagnostics. One pass over the lines, each tried
// against the formats the common tools print: TypeScript (`--pretty false` and pretty), ESLint's
// stylish and unix formatters, and the `file:line[:col]: [severity:] message` that gcc, clang,
// rustc --error-format=short, mypy, ruff and go vet share. Paths are resolved against the command's
// folder and kept only when they lie inside the repository (and, when asked, name one of its files):
// a diagnostic about node_modules or /usr/include is nothing the fix can change.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Diagnostic, Severity } from '../model/diagnostic.js';

export interface ParseOptions {
  /** The folder the command ran in: relative paths in its output are relative to it. */
  readonly cwd: string;
  /** The repository's root on disk (the job's worktree): diagnostics are kept for files under it. */
  readonly root: string;
  /** Narrows further (e.g. to files the repository tracks); called with the repository-relative path. */
  readonly keep?: (path: string) => boolean;
  /** At most this many diagnostics (a broken build can print thousands). Default 500. */
  readonly limit?: number;
}

export const DEFAULT_DIAGNOSTIC_LIMIT = 500;

// ESC [ … letter (colours, cursor moves) and ESC ] … BEL/ST (OSC 8 hyperlinks some tools print).
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

const TSC_PLAIN = /^(\S.*?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const TSC_PRETTY = /^(\S.*?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;
const ESLINT_UNIX = /^(\S.*?):(\d+):(\d+): (.*) \[(Error|Warning)(?:\/(\S+))?\]$/;
const STYLISH_ROW = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(\S+))?\s*$/;
// `vet: ` is how go vet prefixes some of its lines; the column is optional (mypy prints none by default).
const GENERIC = /^(?:vet: )?([^\s:][^:]*?):(\d+)(?::(\d+))?: (?:(fatal error|error|warning|note|info|help)(?:\[([\w-]+)\])?: )?(.*\S)\s*$/;
// ruff's concise format starts the message with its rule code (and `[*]` when it can fix it).
const RUFF_CODE = /^([A-Z]+\d+) (?:\[\*\] )?(.*)$/;
// mypy ends a message with its error code in brackets, gcc with the warning option.
const TRAILING_CODE = /^(.*?)\s+\[([\w-]+|-W[\w=-]+)\]$/;

export function parseDiagnostics(output: string, opts: ParseOptions): Diagnostic[] {
  const limit = opts.limit ?? DEFAULT_DIAGNOSTIC_LIMIT;
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  // The file an ESLint stylish block is about (its header line), until the blank line that ends it.
  let stylishFile: string | null = null;
  // The last TypeScript diagnostic: its message goes on over the indented lines that follow it.
  let tscOpen: { index: number } | null = null;

  const add = (raw: string, line: number, col: number, severity: Severity, message: string, source: Diagnostic['source'], code?: string): number | null => {
    const file = repoPath(raw, opts);
    if (file === null || out.length >= limit) return null;
    const d: Diagnostic = { file, line, col, severity, message: message.trim(), source, ...(code ? { code } : {}) };
    const id = `${d.file}\0${d.line}\0${d.col}\0${d.message}`;
    if (seen.has(id)) return null;
    seen.add(id);
    out.push(d);
    return out.length - 1;
  };

  for (const rawLine of stripAnsi(output).split(/\r?\n/)) {
    const line = rawLine.replace(/\r/g, '');
    if (line.trim() === '') {
      stylishFile = null;
      tscOpen = null;
      continue;
    }
    if (tscOpen !== null && /^ {2,}\S/.test(line)) {
      const prev = out[tscOpen.index];
      if (prev) out[tscOpen.index] = { ...prev, message: `${prev.message}\n${line.trim()}` };
      continue;
    }
    tscOpen = null;
    const ts = TSC_PLAIN.exec(line) ?? TSC_PRETTY.exec(line);
    if (ts) {
      const at = add(ts[1]!, Number(ts[2]), Number(ts[3]), tsSeverity(ts[4]!), ts[6]!, 'tsc', ts[5]);
      if (at !== null) tscOpen = { index: at };
      continue;
    }
    const row = stylishFile === null ? null : STYLISH_ROW.exec(line);
    if (row && stylishFile !== null) {
      add(stylishFile, Number(row[1]), Number(row[2]), row[3] === 'warning' ? 'warning' : 'error', row[4]!, 'eslint', row[5]);
      continue;
    }
    const unix = ESLINT_UNIX.exec(line);
    if (unix) {
      add(unix[1]!, Number(unix[2]), Number(unix[3]), unix[5] === 'Warning' ? 'warning' : 'error', unix[4]!, 'eslint', unix[6]);
      continue;
    }
    const g = GENERIC.exec(line);
    if (g) {
      const generic = genericParts(g[4], g[5], g[6]!);
      add(g[1]!, Number(g[2]), g[3] === undefined ? 0 : Number(g[3]), generic.severity, generic.message, 'generic', generic.code);
      continue;
    }
    // An unindented line that is none of the above may be the header of an ESLint stylish block.
    if (!/^\s/.test(line)) stylishFile = line.trim();
  }
  return out;
}

function tsSeverity(word: string): Severity {
  return word === 'error' ? 'error' : word === 'warning' ? 'warning' : 'info';
}

function genericParts(word: string | undefined, bracketCode: string | undefined, text: string): { severity: Severity; message: string; code?: string } {
  const severity: Severity = word === undefined || word === 'error' || word === 'fatal error' ? 'error' : word === 'warning' ? 'warning' : 'info';
  if (bracketCode) return { severity, message: text, code: bracketCode };
  if (word === undefined) {
    const ruff = RUFF_CODE.exec(text);
    if (ruff) return { severity, message: ruff[2]!, code: ruff[1]! };
  }
  const trailing = TRAILING_CODE.exec(text);
  if (trailing) return { severity, message: trailing[1]!, code: trailing[2]! };
  return { severity, message: text };
}

/** The repository-relative POSIX path of a path a tool printed, or null when it lies outside. */
function repoPath(printed: string, opts: ParseOptions): string | null {
  const abs = resolve(opts.cwd, printed.trim());
  const rel = relative(opts.root, abs);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  const posix = rel.split(sep).join('/');
  if (posix.split('/').includes('.git')) return null;
  return opts.keep && !opts.keep(posix) ? null : posix;
}
