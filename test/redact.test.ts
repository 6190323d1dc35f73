import { describe, expect, it } from 'vitest';
import { makeRedactor, redactDeep, redacting, secretsOf } from '../src/redact.js';

describe('redaction', () => {
  const env = {
    GITHUB_TOKEN: 'ghp_abcdefghijklmnop',
    MY_API_SECRET: 'hunter2hunter2',
    DB_PASSWORD: 'correct-horse',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI',
    SHORT_TOKEN: 'abc',
    HOME: '/root/home-dir',
  };
  it('masks the values of secret-named variables, not others', () => {
    const r = makeRedactor(env);
    expect(r('token=ghp_abcdefghijklmnop and hunter2hunter2, correct-horse; wJalrXUtnFEMI')).toBe('token=*** and ***, ***; ***');
    expect(r('home is /root/home-dir, abc stays')).toBe('home is /root/home-dir, abc stays');
  });
  it('masks credentials in URLs but keeps the host', () => {
    const r = makeRedactor({});
    expect(r('pushing to https://x-access-token:s3cr3t@github.com/o/r.git')).toBe('pushing to https://***@github.com/o/r.git');
    expect(r('https://tok123@gitlab.com/x')).toBe('https://***@gitlab.com/x');
    expect(r('ssh://git@github.com/o/r and git@github.com:o/r')).toBe('ssh://git@github.com/o/r and git@github.com:o/r');
  });
  it('masks a longer secret whole when it contains a shorter one', () => {
    expect(secretsOf({ A_TOKEN: 'abcdefgh', B_TOKEN: 'abcdefghij' })).toEqual(['abcdefghij', 'abcdefgh']);
    expect(makeRedactor({ A_TOKEN: 'abcdefgh', B_TOKEN: 'abcdefghij' })('abcdefghij')).toBe('***');
  });
  it('redacts every string of a report', () => {
    const r = makeRedactor(env);
    expect(redactDeep({ a: ['x ghp_abcdefghijklmnop'], n: 1, b: { c: 'hunter2hunter2' } }, r)).toEqual({ a: ['x ***'], n: 1, b: { c: '***' } });
  });
  it('gives a context whose events reach the listener redacted, with its redactor settled', () => {
    const seen: unknown[] = [];
    const ctx = redacting({ env, onEvent: (e: { type: string; message: string; report?: { errors: string[] } }) => seen.push(e) });
    ctx.onEvent?.({ type: 'log', message: 'push with ghp_abcdefghijklmnop', report: { errors: ['pw correct-horse'] } });
    expect(seen).toEqual([{ type: 'log', message: 'push with ***', report: { errors: ['pw ***'] } }]);
    expect(ctx.redact('hunter2hunter2')).toBe('***');
    const own = (t: string) => t.toUpperCase();
    expect(redacting({ env, redact: own }).redact('abc')).toBe('ABC');
    expect('onEvent' in redacting({ env })).toBe(false);
  });
});
