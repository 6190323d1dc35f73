// The CLI owns the process: it parses argv, runs one command, maps every error to an exit code and
// one clear sentence. Nothing below it knows about argv, TTYs or exit codes.
import yargs from 'yargs';
import { UsageError } from '../errors.js';
import { recipeJsonSchema } from '../recipe/index.js';
import { listCmd } from './commands/list.js';
import { mergeReportsCmd } from './commands/merge-reports.js';
import { branchesCmd, branchesFlags } from './commands/branches.js';
import { prCmd, prLifecycleFlags } from './commands/pr.js';
import { statusCmd, statusFlags } from './commands/status.js';
import { runCmd } from './commands/run.js';
import { validateCmd } from './commands/validate.js';
import { worktreesCmd } from './commands/worktrees.js';
import { processIo, type CliIo } from './io.js';
import { pushFlags, runFlags, type RunFlags } from './options.js';

const EPILOG = `Exit status: 0 every job changed, unchanged or empty; 1 a job failed; 2 bad usage or an invalid recipe.
Docs: the README's "Recipes" section lists every recipe field; \`scion validate\` checks a recipe without running it.`;

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let code = 0;
  let usage: string | null = null;
  const recipesOf = (a: { recipe?: unknown }) => (Array.isArray(a.recipe) ? a.recipe.map(String) : [String(a.recipe)]);

  const cli = yargs()
    .scriptName('scion')
    .usage('$0 <command> [options]\n\nGit-native batch refactoring: a recipe describes a change across many files; each job gets its own worktree and leaves a branch of reviewable commits. Your checkout is never touched.')
    .command(
      'run <recipe..>',
      'Run recipes: one branch per job, one commit per file group',
      (y) => prLifecycleFlags(pushFlags(runFlags(y.positional('recipe', { type: 'string', describe: 'Recipe files (.yaml, .yml, .json, .js, .mjs, .ts)' }))))
        .example('$0 run recipes/rename-logger.yaml', 'Run one recipe against the repository in the current folder')
        .example('$0 run recipes/*.yaml --shard 2/4 --report out.json', 'Run the second of four CI shards and keep a JSON report')
        .example('$0 run recipes/rename-logger.yaml --push --pr', 'Push the changed branches to origin and open their pull requests')
          .epilog(EPILOG),
      async (a) => {
        code = await runCmd(io, recipesOf(a), a as unknown as RunFlags, 'run');
      },
    )
    .command(
      'plan <recipe..>',
      'Same as run --dry-run: print the diffs, write nothing',
      (y) =>
        runFlags(y.positional('recipe', { type: 'string', describe: 'Recipe files' }))
          .example('$0 plan recipes/rename-logger.yaml', 'See the diff each job would commit')
          .epilog(EPILOG),
      async (a) => {
        code = await runCmd(io, recipesOf(a), a as unknown as RunFlags, 'plan');
      },
    )
    .command(
      'validate <recipe..>',
      'Check recipes against the schema; print every problem with file:line:col',
      (y) => y.positional('recipe', { type: 'string', describe: 'Recipe files' }),
      async (a) => {
        code = await validateCmd(io, recipesOf(a));
      },
    )
    .command(
      'list',
      'List the recipes under ./recipes (name, description, jobs)',
      (y) => y.option('dir', { type: 'string', default: '.', describe: 'Project folder whose recipes/ folder to list' }),
      async (a) => {
        code = await listCmd(io, a.dir);
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
        code = await worktreesCmd(io, { repo: a.repo, prune: a.prune });
      },
    )
    .command(
      'merge-reports <reports..>',
      'Merge the JSON reports of CI shards into one report and one PR body',
      (y) =>
        y
          .positional('reports', { type: 'string', describe: 'Report files written by run --report' })
          .option('report', { type: 'string', describe: 'Write the merged JSON report to FILE' })
          .option('pr-body', { type: 'string', describe: 'Write the merged Markdown PR body to FILE' })
          .option('html', { type: 'string', describe: 'Write the merged HTML report to FILE' }),
      async (a) => {
        const files = Array.isArray(a.reports) ? a.reports.map(String) : [String(a.reports)];
        code = await mergeReportsCmd(io, files, {
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
            .option('repo', { type: 'string', default: '.', describe: 'The repository whose remote names the GitHub or GitLab repository' })
            .option('remote', { type: 'string', describe: 'The remote the branches were pushed to (default: the one the report names, else origin)' })
            .option('base', { type: 'string', describe: "The branch the pull requests merge into (default: the remote's default branch)" })
            .option('draft', { type: 'boolean', default: false, describe: 'Open new pull requests as drafts (existing ones keep their state)' })
            .option('label', { type: 'string', describe: 'Add this label to every pull request (repeat for several)' }),
        ).example('$0 pr --report out.json --label codemod', 'Open or update the pull requests of a run that pushed its branches'),
      async (a) => {
        code = await prCmd(io, {
          report: a.report,
          repo: a.repo,
          ...(a.recipe !== undefined ? { recipes: recipesOf(a) } : {}),
          ...(a.remote !== undefined ? { remote: a.remote } : {}),
          ...(a.base !== undefined ? { base: a.base } : {}),
          draft: a.draft,
          ...(a.label !== undefined ? { label: a.label as string | string[] } : {}),
          prInterval: a.prInterval,
          reopen: a.reopen,
        });
      },
    )
    .command(
      'status [recipe..]',
      'One row per job: branch, pull request, state, checks, review, commits behind the base',
      (y) => statusFlags(y.positional('recipe', { type: 'string', describe: 'Recipe files (instead of --report)' })),
      async (a) => {
        code = await statusCmd(io, { ...a, recipes: a.recipe === undefined ? [] : recipesOf(a) });
      },
    )
    .command(
      'branches',
      "List scion's branches; --prune deletes those whose pull request is merged or closed, or that hold no commit",
      (y) => branchesFlags(y),
      async (a) => {
        code = await branchesCmd(io, a);
      },
    )
    .command(
      'schema',
      'Print the JSON Schema of recipe files (point your editor at it)',
      (y) => y,
      () => {
        io.stdout.write(`${JSON.stringify(recipeJsonSchema(), null, 2)}\n`);
      },
    )
    .demandCommand(1, 'Name a command: run, plan, validate, list, worktrees, merge-reports, pr, status or branches.')
    .strict()
    .recommendCommands()
    .epilog(EPILOG)
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((msg, err) => {
      if (err) throw err;
      usage = msg;
    })
    .help()
    .version(false);

  try {
    await cli.parseAsync([...argv], {}, (_err, _args, output) => {
      if (output && usage === null) io.stdout.write(`${output}\n`);
    });
  } catch (e) {
    return reportError(io, e);
  }
  if (usage !== null) {
    io.stderr.write(`scion: ${usage}\nRun \`scion --help\` for the commands and their options.\n`);
    return 2;
  }
  return code;
}

function reportError(io: CliIo, e: unknown): number {
  if (e instanceof UsageError) {
    io.stderr.write(`scion: ${e.message}\n`);
    for (const p of e.problems) io.stderr.write(`  ${p}\n`);
    return 2;
  }
  const msg = e instanceof Error ? e.message : String(e);
  io.stderr.write(`scion: internal error: ${msg}\nThis is a bug in scion; please report it with the command you ran${io.env['SCION_DEBUG'] ? '' : ' (set SCION_DEBUG=1 for a stack trace)'}.\n`);
  if (io.env['SCION_DEBUG'] && e instanceof Error && e.stack) io.stderr.write(`${e.stack}\n`);
  return 1;
}
