// Usage is checked completely before anything runs: a mistyped flag, a flag without its
// value, a flag that needs another, a bad --shard, a missing recipe: exit 2, nothing written,
// nothing on stdout, and a "did you mean" where one is close.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { reposAfterEach } from '../support/cleanups.js';
import { snapshot } from '../support/git-snapshot.js';
import { recipeFile } from '../support/recipe-file.js';
import { spawnScion } from '../support/spawn-cli.js';

const repo = reposAfterEach();
const RECIPE = recipeFile('name: bump\nsteps:\n  - replace: { old_string: "v1", new_string: "v2" }\n');

describe('usage mistakes stop the run before it starts', () => {
  it.each([
    [['--dryrun'], 'did you mean --dry-run?'],
    [['--concurency', '2'], 'did you mean --concurrency?'],
    [['--concurency', '2', '--push'], 'did you mean --concurrency?'],
    [['--report'], '--report needs a value'],
    [['--html'], '--html needs a value'],
    [['--pr-body'], '--pr-body needs a value'],
    [['--report='], '--report needs a value'],
    [['--concurrency'], '--concurrency needs a value'],
    [['--concurrency', 'many'], '--concurrency must be a whole number'],
    [['--concurrency', '0'], '--concurrency 0 must be a whole number'],
    [['--report', '--dry-run'], '--report needs a value'],
    [['--draft'], '--draft says how --pr opens pull requests'],
    [['--label', 'x'], '--label labels the pull requests --pr opens'],
    [['--pr-base', 'main'], '--pr-base says where the pull requests of --pr merge'],
    [['--push-failed'], '--push-failed only says which branches --push pushes'],
    [['--shard', '5/4'], '--shard 5/4 is not I/N'],
    [['--shard', 'two'], '--shard two is not I/N'],
    [['--job'], '--job needs a value'],
  ])('run %j: exit 2, .git byte-identical, stdout empty', async (flags, message) => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const before = snapshot(join(r.dir, '.git'));
    const res = await scion(['run', RECIPE, '--repo', r.dir, ...flags], { cwd: r.dir });
    expect(res.stderr).toContain(message);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(snapshot(join(r.dir, '.git'))).toEqual(before);
  });

  // The report named does not exist: each mistake is found while parsing, before it is read.
  it.each([
    [['pr', '--comment', ' '], '--comment needs the text to post'],
    [['pr', '--merge', 'fast-forward'], '--merge fast-forward is not a merge method'],
    [['pr', '--close', '--ready'], 'choose one per command'],
    [['pr', '--state', 'open'], '--job, --state and --stale select the pull requests of a bulk operation'],
    [['pr', '--job', 'a'], '--job, --state and --stale select the pull requests of a bulk operation'],
    [['pr', '--close', '--state', 'sleepy'], '--state sleepy is not one of open, draft, failing, stale, no-reviewer.'],
    [['pr', '--close', '--stale', '0'], '--stale 0 must be a whole number of days'],
    [['pr', '--repo', 'a', '--repo', 'b'], '--repo names the repository folder once'],
    [['pr', '--pr-interval', '-1'], '--pr-interval -1 must be a whole number of milliseconds'],
    [['track', '--stale', '1.5'], '--stale 1.5 must be a whole number of days'],
  ])('%j: exit 2 before the report is read', async (args, message) => {
    const res = await scion([...args, '--report', 'missing.json'], { cwd: '/' });
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toContain('missing.json');
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
  });

  it('run without a recipe says so and prints nothing else', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const res = await scion(['run', '--repo', r.dir], { cwd: r.dir });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('scion run needs at least one recipe file');
    expect(res.stderr).not.toContain('0 jobs');
  });

  it('an unknown command is recommended its closest name', async () => {
    const res = await scion(['runn', RECIPE], { cwd: '/' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Unknown command "runn": did you mean run?');
    const far = await scion(['explode'], { cwd: '/' });
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('Unknown command "explode"');
    expect(far.stderr).not.toContain('did you mean');
  });

  it('plan refuses what only run honours, naming run', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const res = await scion(['plan', RECIPE, '--repo', r.dir, '--keep-worktrees'], { cwd: r.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--keep-worktrees cannot go with plan');
  });

  it('plan --dry-run is accepted (plan is one) and writes nothing', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const before = snapshot(join(r.dir, '.git'));
    const res = await scion(['plan', RECIPE, '--repo', r.dir, '--dry-run'], { cwd: r.dir });
    expect(res.code).toBe(0);
    expect(snapshot(join(r.dir, '.git'))).toEqual(before);
  });

  it('a correct line still runs (the checks refuse only mistakes)', async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const res = await scion(['run', RECIPE, '--repo', r.dir, '--concurrency', '2', '--shard', '1/1', '--job', 'bu*'], { cwd: r.dir });
    expect(res.code).toBe(0);
    expect(r.git('show', 'scion/bump:a.txt')).toBe('v2');
  });

  it("the real process: a typo'd flag leaves refs and objects byte-identical, exit 2", async () => {
    const r = await repo({ 'a.txt': 'v1\n' });
    const before = snapshot(join(r.dir, '.git'));
    const res = await spawnScion(['run', RECIPE, '--dryrun'], { cwd: r.dir }).done;
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('did you mean --dry-run?');
    expect(snapshot(join(r.dir, '.git'))).toEqual(before);
    expect(r.git('for-each-ref')).not.toContain('scion/');
  });
});
