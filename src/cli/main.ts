// Each command's module is imported when that command runs (start-up: `scion --help` and
// `scion validate` load neither isomorphic-git, diff2html, the SDK nor tsx).
// The CLI owns the process: it parses argv, runs one command, maps every error to an exit code and
// one clear sentence. Nothing below it knows about argv, TTYs or exit codes.
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { ScionError, UsageError } from '../errors.js';
import { GitError } from '../git/errors.js';
import { PlanError } from '../recipe/plan-error.js';
import { fixHint } from '../report/hints.js';
import { EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE } from './exit.js';
import { environmentError } from './files.js';
import { atEdge, processIo, type CliIo } from './io.js';
import { branchesFlags, prLifecycleFlags, statusFlags, trackFlags } from './publish-flags.js';
import { FlagError, planFlags, runFlags, type RunFlags } from './options.js';
import { shapeUsage } from './usage.js';

const EPILOG = `Exit status: 0 every job changed, unchanged or empty; 1 a job failed; 2 bad usage or an invalid recipe.
Docs: the README's "Recipes" section lists every recipe field; \`scion validate\` checks a recipe without running it.`;

export async function main(argv: readonly string[], given: CliIo = processIo()): Promise<number> {
  // Everything below prints and writes through the redacting edge.
  const io = atEdge(given);
  let code = 0;
  const recipesOf = (a: { recipe?: unknown }) => (Array.isArray(a.recipe) ? a.recipe.map(String) : [String(a.recipe)]);
  const args = helpCommand(argv);

  const cli = yargs()
    .scriptName('scion')
    // yargs words its messages in the locale of the process; usage.ts reads them in English.
    .locale('en')
    .usage('$0 <command> [options]\n\nGit-native batch refactoring: a recipe describes a change across many files; each job gets its own worktree and leaves a branch of reviewable commits. Your checkout is never touched.')
    .command(
      'run <recipe..>',
      'Run recipes: one branch per job, one commit per file group',
      (y) => prLifecycleFlags(runFlags(y.positional('recipe', { type: 'string', describe: 'Recipe files (.yaml, .yml, .json, .js, .mjs, .ts)' })))
        .example('$0 run recipes/rename-logger.yaml', 'Run one recipe against the repository in the current folder')
        .example('$0 run recipes/*.yaml --shard 2/4 --report out.json', 'Run the second of four CI shards and keep a JSON report')
        .example('$0 run recipes/rename-logger.yaml --push --pr', 'Push the changed branches to origin and open their pull requests')
          .epilog(EPILOG),
      async (a) => {
        code = await (await import('./commands/run.js')).runCmd(io, recipesOf(a), a as unknown as RunFlags, 'run');
      },
    )
    .command(
      'plan <recipe..>',
      'Same as run --dry-run: print the diffs, write nothing',
      (y) =>
        planFlags(y.positional('recipe', { type: 'string', describe: 'Recipe files' }))
          .example('$0 plan recipes/rename-logger.yaml', 'See the diff each job would commit')
          .example('$0 plan recipes/rename-logger.yaml --patch > change.patch', 'Write one patch that git apply accepts')
          .epilog(EPILOG),
      async (a) => {
        code = await (await import('./commands/run.js')).runCmd(io, recipesOf(a), a as unknown as RunFlags, 'plan');
      },
    )
    .command(
      'validate <recipe..>',
      'Check recipes against the schema; print every problem with file:line:col',
      (y) => y.positional('recipe', { type: 'string', describe: 'Recipe files' }),
      async (a) => {
        code = await (await import('./commands/validate.js')).validateCmd(io, recipesOf(a));
      },
    )
    .command(
      'list',
      'List the recipes under ./recipes (name, description, jobs)',
      (y) => y.option('dir', { type: 'string', default: '.', describe: 'Project folder whose recipes/ folder to list' }),
      async (a) => {
        code = await (await import('./commands/list.js')).listCmd(io, a.dir);
      },
    )
    .command(
      'worktrees',
      "List scion's worktrees; --prune removes those of finished jobs",
      (y) =>
        y
          .option('prune', { type: 'boolean', default: false, describe: 'Remove the worktrees of finished jobs' })
          .option('repo', { type: 'string', default: '.', describe: 'The repository' }),
      async (a) => {
        code = await (await import('./commands/worktrees.js')).worktreesCmd(io, { repo: a.repo, prune: a.prune });
      },
    )
    .command(
      'merge-reports <reports..>',
      'Merge the JSON reports of CI shards into one report and one PR body',
      (y) =>
        y
          .positional('reports', { type: 'string', describe: 'Report files written by run --report' })
          .option('report', { type: 'string', requiresArg: true, describe: 'Write the merged JSON report to FILE' })
          .option('pr-body', { type: 'string', requiresArg: true, describe: 'Write the merged Markdown PR body to FILE' })
          .option('html', { type: 'string', requiresArg: true, describe: 'Write the merged HTML report to FILE' }),
      async (a) => {
        const files = Array.isArray(a.reports) ? a.reports.map(String) : [String(a.reports)];
        code = await (await import('./commands/merge-reports.js')).mergeReportsCmd(io, files, {
          ...(a.report ? { report: a.report } : {}),
          ...(a.prBody ? { prBody: a.prBody } : {}),
          ...(a.html ? { html: a.html } : {}),
        });
      },
    )
    .command(
      'pr [recipe..]',
      'Create, update or close one pull request per job branch a run pushed (GitHub or GitLab, by the remote)',
      (y) =>
        prLifecycleFlags(
          y
            .positional('recipe', { type: 'string', describe: "Recipe files whose pr: blocks apply (default: the recipes under ./recipes, by name)" })
            .option('report', { type: 'string', demandOption: true, describe: 'The JSON report of the run (run --push --report FILE, or merge-reports)' })
            .option('repo', { type: 'string', describe: "The repository whose remote names the GitHub or GitLab repository (default: .); in a bulk operation, globs over the report's repositories" })
            .option('remote', { type: 'string', describe: 'The remote the branches were pushed to (default: the one the report names, else origin)' })
            .option('comment', { type: 'string', group: 'Bulk operations:', describe: 'Post TEXT on each selected pull request (never twice the same text on one)' })
            .option('close', { type: 'boolean', group: 'Bulk operations:', describe: 'Close each selected pull request (its branch deleted when every commit on it is scion\'s)' })
            .option('ready', { type: 'boolean', group: 'Bulk operations:', describe: 'Mark each selected draft ready for review' })
            .option('merge', { type: 'string', group: 'Bulk operations:', describe: 'Merge each selected pull request whose checks pass and whose review allows it (squash, merge or rebase; default merge)' })
            .option('job', { type: 'string', array: true, requiresArg: true, group: 'Bulk operations:', describe: 'Only the jobs whose name matches (globs; repeatable)' })
            .option('state', { type: 'string', array: true, requiresArg: true, group: 'Bulk operations:', describe: 'Only pull requests that are open, draft, failing, stale or no-reviewer (repeatable)' })
            .option('stale', { type: 'number', requiresArg: true, group: 'Bulk operations:', describe: 'Days without activity after which an open pull request is stale (default 14)' })
            .option('base', { type: 'string', describe: "The branch the pull requests merge into (default: the remote's default branch)" })
            .option('draft', { type: 'boolean', default: false, describe: 'Open new pull requests as drafts (existing ones keep their state)' })
            .option('label', { type: 'string', describe: 'Add this label to every pull request (repeat for several)' })
            .option('cache-dir', { type: 'string', requiresArg: true, describe: "A campaign report's clones: the --cache-dir of its run (default: $XDG_CACHE_HOME/scion/repos, else ~/.cache/scion/repos)" }),
        ).example('$0 pr --report out.json --label codemod', 'Open or update the pull requests of a run that pushed its branches'),
      async (a) => {
        code = await (await import('./commands/pr.js')).prCmd(io, {
          report: a.report,
          ...(a.repo !== undefined ? { repo: a.repo as string | string[] } : {}),
          ...(a.comment !== undefined ? { comment: a.comment } : {}),
          ...(a.close !== undefined ? { close: a.close } : {}),
          ...(a.ready !== undefined ? { ready: a.ready } : {}),
          ...(a.merge !== undefined ? { merge: a.merge } : {}),
          ...(a.job !== undefined ? { job: a.job } : {}),
          ...(a.state !== undefined ? { state: a.state } : {}),
          ...(a.stale !== undefined ? { stale: a.stale } : {}),
          ...(a.recipe !== undefined ? { recipes: recipesOf(a) } : {}),
          ...(a.remote !== undefined ? { remote: a.remote } : {}),
          ...(a.base !== undefined ? { base: a.base } : {}),
          draft: a.draft,
          ...(a.label !== undefined ? { label: a.label as string | string[] } : {}),
          prInterval: a.prInterval,
          reopen: a.reopen,
          ...(a.writeBudget !== undefined ? { writeBudget: a.writeBudget } : {}),
          ...(a.cacheDir !== undefined ? { cacheDir: a.cacheDir } : {}),
        });
      },
    )
    .command(
      'status [recipe..]',
      'One row per job: branch, pull request, state, checks, review, commits behind the base',
      (y) => statusFlags(y.positional('recipe', { type: 'string', describe: 'Recipe files (instead of --report)' })),
      async (a) => {
        code = await (await import('./commands/status.js')).statusCmd(io, { ...a, recipes: a.recipe === undefined ? [] : recipesOf(a) });
      },
    )
    .command(
      'track',
      "Follow a run's pull requests: a snapshot to --history, a burndown page (--html), CSV rows, one tracking issue",
      (y) => trackFlags(y).example('$0 track --report out.json --history track.jsonl --html track.html --issue acme/codemods', 'Nightly: record, draw and publish where the campaign stands'),
      async (a) => {
        code = await (await import('./commands/track.js')).trackCmd(io, a);
      },
    )
    .command(
      'branches',
      "List scion's branches; --prune deletes those whose pull request is merged or closed, or that hold no commit",
      (y) => branchesFlags(y),
      async (a) => {
        code = await (await import('./commands/branches.js')).branchesCmd(io, a);
      },
    )
    .command(
      'owners [path..]',
      'Owners of each path by CODEOWNERS at a commit, the line that decided, and every line skipped (--json)',
      (y) =>
        y
          .positional('path', { type: 'string', describe: 'Repository-relative paths (default: every file of the commit)' })
          .option('repo', { type: 'string', default: '.', describe: 'The repository' })
          .option('base', { type: 'string', requiresArg: true, describe: 'The commit whose CODEOWNERS decides (default: HEAD)' })
          .option('codeowners', { choices: ['github', 'gitlab'] as const, describe: "Whose reading of CODEOWNERS (default: gitlab when origin is a GitLab host, else github)" })
          .option('json', { type: 'boolean', default: false, describe: 'Print {file, paths: [{path, owners, rules}], skipped: [{line, text, reason}]}' })
          .example('$0 owners src/app.ts docs/', 'Who owns these paths, and which CODEOWNERS line says so'),
      async (a) => {
        const paths = a.path === undefined ? [] : Array.isArray(a.path) ? a.path.map(String) : [String(a.path)];
        code = await (await import('./commands/owners.js')).ownersCmd(io, {
          paths,
          repo: a.repo,
          json: a.json,
          ...(a.base !== undefined ? { base: a.base } : {}),
          ...(a.codeowners !== undefined ? { codeowners: a.codeowners } : {}),
        });
      },
    )
    .command(
      'schema',
      'Print the JSON Schema of recipe files (point your editor at it)',
      (y) => y,
      async () => {
        const { recipeJsonSchema } = await import('../recipe/index.js');
        io.stdout.write(`${JSON.stringify(recipeJsonSchema(), null, 2)}\n`);
      },
    )
    .demandCommand(1, 'Name a command: run, plan, validate, list, worktrees, merge-reports, pr, status, track, branches or owners.')
    .strict()
    .recommendCommands()
    .epilog(EPILOG)
    .wrap(Math.min(110, io.stdout.columns ?? 100))
    .exitProcess(false)
    // Throwing here is what stops yargs: a fail handler that returns lets the command run anyway.
    .fail((msg, err) => {
      // yargs' own parse errors (a flag without its value) come as a YError; anything else is ours.
      if (err && err.name !== 'YError') throw err;
      throw new YargsUsage(msg || err?.message || 'bad usage');
    })
    .help()
    .alias('help', 'h')
    .version(packageVersion())
    .alias('version', 'V');

  let output = '';
  try {
    await cli.parseAsync([...args], {}, (_err, _args, out) => {
      output = out;
    });
  } catch (e) {
    if (e instanceof YargsUsage || e instanceof FlagError) {
      const command = args.find((a) => !a.startsWith('-'));
      const msg = await shapeUsage(e instanceof Error ? e.message : String(e), {
        argv: args,
        command,
        commands: COMMANDS,
        flags: () => flagsOf(command),
      });
      io.stderr.write(`scion: ${msg}\nRun \`scion ${command !== undefined && COMMANDS.includes(command) ? `${command} ` : ''}--help\` for the options.\n`);
      return EXIT_USAGE;
    }
    const code = reportError(io, e);
    return io.signal?.aborted ? EXIT_INTERRUPTED : code;
  }
  // --help and --version: yargs hands their text here instead of printing it.
  if (output) io.stdout.write(`${output}\n`);
  return code;
}

/** A usage mistake found by yargs' own parsing (unknown flag, missing value, unknown command). */
class YargsUsage extends Error {}


const COMMANDS = ['run', 'plan', 'validate', 'list', 'worktrees', 'merge-reports', 'pr', 'status', 'track', 'branches', 'owners', 'schema', 'help'];

/** `scion help run` is `scion run --help`; `scion help` is `scion --help`. */
function helpCommand(argv: readonly string[]): readonly string[] {
  if (argv[0] !== 'help') return argv;
  if (argv.length === 1) return ['--help'];
  // An unknown name stays a command, so it gets "did you mean" and exit 2 instead of the general help.
  return COMMANDS.includes(argv[1]!) ? [argv[1]!, '--help'] : argv.slice(1);
}

/** The long flags of a command, read from its own --help text (so new flags need no second list). */
async function flagsOf(command: string | undefined): Promise<string[]> {
  if (command === undefined) return [];
  let text = '';
  const quiet = { write: () => true };
  await main([command, '--help'], { stdout: { write: (s: string) => (text += s) }, stderr: quiet, env: {}, cwd: '/' });
  return [...new Set([...text.matchAll(/--(?:\[no-\])?([a-z][a-z0-9-]*)/g)].map((m) => m[1]!))];
}

let version: string | undefined;
/** package.json's version: two folders up from src/cli and from dist/cli alike. */
function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}

function reportError(io: CliIo, e: unknown): number {
  if (e instanceof UsageError || e instanceof PlanError) {
    io.stderr.write(`scion: ${e.message}\n`);
    for (const p of e.problems) io.stderr.write(`  ${p}\n`);
    return EXIT_USAGE;
  }
  // The machine refused (disk full, permission, read-only, a repository git will not touch): one
  // sentence with the path and the fix, exit 1, and no "bug" — it is not one.
  const env = e instanceof ScionError ? e : environmentError(e);
  if (env !== undefined) {
    io.stderr.write(`scion: ${env.message}\n`);
    if (env.kind !== 'environment') io.stderr.write(`  fix: ${fixHint(env.kind)}\n`);
    return EXIT_FAILED;
  }
  // The git layer's coded errors that are the user's to fix: a bad --repo or base (exit 2), the
  // machine refusing (exit 1). Neither is a bug.
  if (e instanceof GitError && (e.code === 'not-a-repository' || e.code === 'bad-revision' || e.code === 'unsupported' || e.code === 'environment')) {
    io.stderr.write(`scion: ${e.message}\n`);
    return e.code === 'environment' ? EXIT_FAILED : EXIT_USAGE;
  }
  const msg = e instanceof Error ? e.message : String(e);
  io.stderr.write(`scion: internal error: ${msg}\nThis is a bug in scion; please report it with the command you ran${io.env['SCION_DEBUG'] ? '' : ' (set SCION_DEBUG=1 for a stack trace)'}.\n`);
  if (io.env['SCION_DEBUG'] && e instanceof Error && e.stack) io.stderr.write(`${e.stack}\n`);
  return EXIT_FAILED;
}
