// The one place errors become exit statuses and sentences: each kind's status, and that a network
// failure, a host's refusal or the machine refusing is never reported as a bug.
import { describe, expect, it } from 'vitest';
import { CALL_KINDS, ERROR_KINDS, GIT_KINDS, hostError, ScionError, usageError, type ScionErrorKind } from '../../src/errors.js';
import { exitCodeOf, reportError } from '../../src/cli/exit.js';

function printed(e: unknown): { code: number; stderr: string } {
  let stderr = '';
  const code = reportError({ stdout: { write: () => true }, stderr: { write: (s: string) => (stderr += s) }, env: {}, cwd: '/' }, e);
  return { code, stderr };
}

describe('exit statuses by kind', () => {
  it.each<[ScionErrorKind, number]>([
    ['usage', 2],
    ['recipe', 2],
    ['plan', 2],
    ['bad-glob', 2],
    ['not-a-repository', 2],
    ['bad-revision', 2],
    ['host', 1],
    ['remote', 1],
    ['environment', 1],
    ['locked', 1],
    ['push-failed', 1],
    ['interrupted', 130],
  ])('%s → %i', (kind, code) => {
    expect(exitCodeOf(kind)).toBe(code);
  });

  it('every kind has a status of 1, 2 or 130', () => {
    for (const kind of [...ERROR_KINDS, ...CALL_KINDS, ...GIT_KINDS]) expect([1, 2, 130]).toContain(exitCodeOf(kind));
  });
});

describe('reportError', () => {
  it('says a usage mistake and each problem, exit 2', () => {
    const r = printed(usageError('r.yaml is not a valid recipe.', ['r.yaml:3:1: unknown key "stpes"']));
    expect(r).toEqual({ code: 2, stderr: 'scion: r.yaml is not a valid recipe.\n  r.yaml:3:1: unknown key "stpes"\n' });
  });

  it('a host that refused is exit 1 without "bug"', () => {
    const r = printed(hostError('GitHub answered 403 while listing the pull requests of acme/app: Bad credentials.', 403));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('scion: GitHub answered 403 while listing the pull requests of acme/app: Bad credentials.\n');
  });

  it('a network failure from Node (no answer at all) is exit 1 and never "internal error"', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const r = printed(refused);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Could not reach the server (connect ECONNREFUSED 127.0.0.1:9)');
    expect(r.stderr).not.toMatch(/internal error|bug/);
  });

  it('a job kind carries its fix; an error scion cannot name is a bug', () => {
    expect(printed(new ScionError('locked', 'Another scion run (pid 12) holds scion/x.')).stderr).toContain('  fix: ');
    const bug = printed(new TypeError("Cannot read properties of undefined (reading 'x')"));
    expect(bug.code).toBe(1);
    expect(bug.stderr).toContain('internal error');
  });
});
