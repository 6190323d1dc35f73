import { describe, expect, it } from 'vitest';
import { hideUrlCredentials, makeRedactor, redactDeep, redacting, secretsOf } from '../src/redact.js';

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
  it('masks URL credentials exactly as one global replace of the pattern would, wherever in a long text', () => {
    // The pattern as a plain global replace: what the faster scan before each "://" must give.
    const pattern = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:'"<>]+:[^\s/@'"<>]*|[^\s/@:'"<>]+)@(?=[^\s/@'"<>])/gi;
    const plain = (text: string) =>
      text.replace(pattern, (whole: string, scheme: string, userinfo: string) =>
        /^https?:\/\//i.test(scheme) || userinfo.includes(':') ? `${scheme}***@` : whole,
      );
    const pieces = [
      'https://',
      'HTTP://',
      'ssh://',
      'git+ssh://',
      'https',
      '://',
      '_',
      '9',
      'x.',
      '-',
      '+',
      'u:p@',
      'tok@',
      'h',
      ' ',
      '/',
      ':',
      '@',
      '"',
      'é',
      'a',
    ];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let changed = 0;
    for (let k = 0; k < 5000; k++) {
      let text = '';
      const len = 1 + next(12);
      for (let i = 0; i < len; i++) text += pieces[next(pieces.length)];
      expect(hideUrlCredentials(text)).toBe(plain(text));
      if (plain(text) !== text) changed++;
    }
    // The random texts hold URLs with credentials often enough to test the masking, not only its absence.
    expect(changed).toBeGreaterThan(200);
    for (const text of ['_https://u:p@h', '9http://u:p@h', 'é.https://u:p@h', 'x.https://u:p@h https://t@h', 'a-b+c.d://u:p@h', 'https://a@b@c']) {
      expect(hideUrlCredentials(text)).toBe(plain(text));
    }
    const long = `${'minified(){return a.b+c}'.repeat(5000)} https://u:p@h.io/x ${'_x://y@'.repeat(100)} ftp://me@host ssh://git@host`;
    expect(hideUrlCredentials(long)).toBe(plain(long));
    expect(hideUrlCredentials(long)).toContain('https://***@h.io/x');
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
