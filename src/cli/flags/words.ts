// The library's option names as the command line says them: its flags.

/**
 * The flag that gives each library option: the library's messages name options (give the `repo`
 * option a folder inside one), and on the command line they read as flags (give --repo a folder
 * inside one). A command that gives an option through another flag has its own entry.
 */
const OPTION_FLAGS: Readonly<Record<string, string>> = {
  repo: '--repo',
  base: '--base',
  remote: '--remote',
  report: '--report',
  recipes: 'the recipe arguments',
  repositories: '--repos, --github-org, --github-search or --gitlab-group',
  'repositories.list': '--repos',
  concurrency: '--concurrency',
  jobs: '--job',
  shard: '--shard',
  publish: '--push',
  'publish.remote': '--push',
  'publish.base': '--pr-base',
  'publish.intervalMs': '--pr-interval',
  'publish.labels': '--label',
  intervalMs: '--pr-interval',
  labels: '--label',
  dryRun: '--dry-run (or plan)',
};

const COMMAND_OPTION_FLAGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // run and plan push to the remote --push names.
  run: { remote: '--push' },
  plan: { remote: '--push' },
};

/** `text` with every "the `option` option" the library wrote said as the flag of `command`. */
export function inFlagWords(text: string, command: string | undefined): string {
  const own = command === undefined ? undefined : COMMAND_OPTION_FLAGS[command];
  return text.replace(/\b[Tt]he `([\w.]+)` option\b/g, (all, name: string) => own?.[name] ?? OPTION_FLAGS[name] ?? all);
}
