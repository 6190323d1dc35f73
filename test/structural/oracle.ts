// The ast-grep CLI (@ast-grep/cli, the same version as @ast-grep/napi) as the oracle of the
// conformance tests, and scion's engine called the same way: a rule file's text and a source file in,
// the rewritten text out. The CLI always runs on a temporary copy.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { rewriteFile, type FileOutcome } from '../../src/structural/astgrep.js';
import { loadAstgrep, type AstgrepSource } from '../../src/structural/load.js';
import type { Result } from '../../src/errors.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AST_GREP = join(ROOT, 'node_modules', '@ast-grep', 'cli', 'ast-grep');

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
// ignoreBOM keeps a BOM in the text, where tests can see it.
export const fromUtf8 = (b: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);

/** What `ast-grep scan --rule <file> -U` leaves in `fileName` holding `source`. */
export function cliScan(ruleYaml: string, fileName: string, source: string | Uint8Array): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'scion-sg-'));
  try {
    writeFileSync(join(dir, 'rule.yml'), ruleYaml);
    writeFileSync(join(dir, fileName), source);
    execFileSync(AST_GREP, ['scan', '--rule', 'rule.yml', '-U', fileName], { cwd: dir, stdio: 'pipe' });
    return readFileSync(join(dir, fileName));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `ast-grep run -p <pattern> -r <rewrite> -U` leaves in the file. */
export function cliRun(pattern: string, rewrite: string, lang: string, fileName: string, source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'scion-sg-'));
  try {
    writeFileSync(join(dir, fileName), source);
    execFileSync(AST_GREP, ['run', '-p', pattern, '-r', rewrite, '-l', lang, '-U', fileName], { cwd: dir, stdio: 'pipe' });
    return readFileSync(join(dir, fileName), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** scion's engine on one file, from a rule file's text or a step's fields. */
export async function engine(source: AstgrepSource, path: string, bytes: Uint8Array): Promise<Result<FileOutcome>> {
  const loaded = await loadAstgrep(source, { fromDir: ROOT });
  if (!loaded.ok) throw new Error(`the rule did not load: ${JSON.stringify(loaded.error)}`);
  return rewriteFile(loaded.value, { path, bytes });
}

/** The bytes scion writes (the input when it leaves the file alone); fails the test on a Failure. */
export async function engineBytes(source: AstgrepSource, path: string, bytes: Uint8Array): Promise<Uint8Array> {
  const r = await engine(source, path, bytes);
  if (!r.ok) throw new Error(`${r.error.kind}: ${r.error.message}`);
  return r.value.status === 'changed' ? r.value.after : bytes;
}

export function changedOutcome(r: Result<FileOutcome>): Extract<FileOutcome, { status: 'changed' }> {
  if (!r.ok) throw new Error(`expected a change, got ${r.error.kind}: ${r.error.message}`);
  expect(r.value.status).toBe('changed');
  return r.value as Extract<FileOutcome, { status: 'changed' }>;
}
