// The CLI's commands as one table: each command's words, its flags (from flags/) and the module that
// runs it, imported only when that command runs (start-up: `scion --help` loads no command, no git,
// no host client, no renderer). A new command is one entry here and one module under commands/.
import type { Argv } from 'yargs';
import {
  branchesFlags,
  listFlags,
  mergeReportsFlags,
  ownersFlags,
  planFlags,
  prFlags,
  runFlags,
  statusFlags,
  trackFlags,
  worktreesFlags,
} from './flags/index.js';
import type { CommandModule } from './args.js';

export interface Command {
  /** The command as yargs reads it: its name and positionals (`run <recipe..>`). */
  readonly usage: string;
  readonly describe: string;
  /** Its flags and examples. */
  readonly build: (y: Argv) => Argv;
  readonly load: () => Promise<CommandModule>;
}

const EPILOG = `Exit status: 0 every job changed, unchanged or empty; 1 a job failed; 2 bad usage or an invalid recipe.
Docs: the README's "Recipes" section lists every recipe field; \`scion validate\` checks a recipe without running it.`;

const recipes = (describe: string) => (y: Argv) => y.positional('recipe', { type: 'string', describe });

export const COMMANDS: readonly Command[] = [
  {
    usage: 'run <recipe..>',
    describe: 'Run recipes: one branch per job, one commit per file group',
    build: (y) =>
      runFlags(recipes('Recipe files (.yaml, .yml, .json, .js, .mjs, .ts)')(y))
        .example('$0 run recipes/rename-logger.yaml', 'Run one recipe against the repository in the current folder')
        .example('$0 run recipes/*.yaml --shard 2/4 --report out.json', 'Run the second of four CI shards and keep a JSON report')
        .example('$0 run recipes/rename-logger.yaml --push --pr', 'Push the changed branches to origin and open their pull requests')
        .epilog(EPILOG),
    load: () => import('./commands/run.js').then((m) => ({ run: m.runCommand })),
  },
  {
    usage: 'plan <recipe..>',
    describe: 'Same as run --dry-run: print the diffs, write nothing',
    build: (y) =>
      planFlags(recipes('Recipe files')(y))
        .example('$0 plan recipes/rename-logger.yaml', 'See the diff each job would commit')
        .example('$0 plan recipes/rename-logger.yaml --patch > change.patch', 'Write one patch that git apply accepts')
        .epilog(EPILOG),
    load: () => import('./commands/run.js').then((m) => ({ run: m.planCommand })),
  },
  {
    usage: 'validate <recipe..>',
    describe: 'Check recipes against the schema; print every problem with file:line:col',
    build: recipes('Recipe files'),
    load: () => import('./commands/recipes.js').then((m) => ({ run: m.validateCommand })),
  },
  {
    usage: 'list',
    describe: 'List the recipes under ./recipes (name, description, jobs)',
    build: listFlags,
    load: () => import('./commands/recipes.js').then((m) => ({ run: m.listCommand })),
  },
  {
    usage: 'worktrees',
    describe: "List scion's worktrees; --prune removes those of finished jobs",
    build: worktreesFlags,
    load: () => import('./commands/worktrees.js'),
  },
  {
    usage: 'merge-reports <reports..>',
    describe: 'Merge the JSON reports of CI shards into one report and one PR body',
    build: (y) => mergeReportsFlags(y.positional('reports', { type: 'string', describe: 'Report files written by run --report' })),
    load: () => import('./commands/merge-reports.js'),
  },
  {
    usage: 'pr [recipe..]',
    describe: 'Create, update or close one pull request per job branch a run pushed (GitHub or GitLab, by the remote)',
    build: (y) =>
      prFlags(recipes('Recipe files whose pr: blocks apply (default: the recipes under ./recipes, by name)')(y)).example(
        '$0 pr --report out.json --label codemod',
        'Open or update the pull requests of a run that pushed its branches',
      ),
    load: () => import('./commands/pr.js'),
  },
  {
    usage: 'status [recipe..]',
    describe: 'One row per job: branch, pull request, state, checks, review, commits behind the base',
    build: (y) => statusFlags(recipes('Recipe files (instead of --report)')(y)),
    load: () => import('./commands/status.js'),
  },
  {
    usage: 'track',
    describe: "Follow a run's pull requests: a snapshot to --history, a burndown page (--html), CSV rows, one tracking issue",
    build: (y) =>
      trackFlags(y).example(
        '$0 track --report out.json --history track.jsonl --html track.html --issue acme/codemods',
        'Nightly: record, draw and publish where the campaign stands',
      ),
    load: () => import('./commands/track.js'),
  },
  {
    usage: 'branches',
    describe: "List scion's branches; --prune deletes those whose pull request is merged or closed, or that hold no commit",
    build: branchesFlags,
    load: () => import('./commands/branches.js'),
  },
  {
    usage: 'owners [path..]',
    describe: 'Owners of each path by CODEOWNERS at a commit, the line that decided, and every line skipped (--json)',
    build: (y) =>
      ownersFlags(y.positional('path', { type: 'string', describe: 'Repository-relative paths (default: every file of the commit)' })).example(
        '$0 owners src/app.ts docs/',
        'Who owns these paths, and which CODEOWNERS line says so',
      ),
    load: () => import('./commands/owners.js'),
  },
  {
    usage: 'schema',
    describe: 'Print the JSON Schema of recipe files (point your editor at it)',
    build: (y) => y,
    load: () => import('./commands/recipes.js').then((m) => ({ run: m.schemaCommand })),
  },
];

/** Every command's name, in the table's order. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.usage.split(' ')[0]!);

export { EPILOG };
