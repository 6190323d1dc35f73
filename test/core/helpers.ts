// Small helpers for the core tests: bytes from text, text from results, fake credentials.
import { expect } from 'vitest';
import type { EngineResult, FileChange } from '../../src/core/index.js';
import type { Failure } from '../../src/errors.js';

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
export const text = (b: Uint8Array): string => new TextDecoder().decode(b);

export function file(path: string, content: string | Uint8Array | null): { path: string; bytes: Uint8Array | null } {
  return { path, bytes: typeof content === 'string' ? utf8(content) : content };
}

export function changed(r: EngineResult): FileChange {
  if (!r.ok) throw new Error(`expected success, got ${r.error.kind}: ${r.error.message}`);
  return r.value;
}

export function failed(r: EngineResult | { ok: false; error: Failure } | { ok: true; value: unknown }): Failure {
  if (r.ok) throw new Error('expected a failure, got success');
  return r.error;
}

export function expectFailure(r: EngineResult, kind: Failure['kind'], code?: number): Failure {
  const f = failed(r);
  expect(f.kind).toBe(kind);
  expect(f.code).toBe(code);
  return f;
}

export function hex(b: Uint8Array): string {
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');
}

// Credentials are assembled at run time so no scanner mistakes this file for a leak.
const repeat = (s: string, n: number): string => s.repeat(n).slice(0, n);
export const fakeSecrets = {
  github: 'ghp' + '_' + repeat('aB3dE6gH9j', 36),
  githubOauth: 'gho' + '_' + repeat('Zy8Xw7Vu6T', 36),
  githubServer: 'ghs' + '_' + repeat('Qr5St4Uv3W', 36),
  githubPat: 'github' + '_pat_' + repeat('11ABCDEFG0', 22) + '_' + repeat('xYz123AbC9', 59),
  gitlab: 'glpat' + '-' + repeat('a1B2c3D4e5', 20),
  slack: 'xoxb' + '-' + '123456789012-' + repeat('aBcDeF1234', 24),
  aws: 'AKIA' + 'IOSFODNN7EXAMPLE',
  anthropic: 'sk-' + 'ant-api03-' + repeat('A1b2C3d4E5f6', 90),
  openai: 'sk-' + 'proj-' + repeat('Tq9Rs8Pu7Vw6', 48),
  privateKey: '-----BEGIN ' + 'RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----',
};
