// The import rules of scion's layers, checked by dependency-cruiser (`npm run lint:imports`, run by
// .ci/run before the tests). Imports point down only:
//
//   cli → api → campaign → {publish, runner} → {agent, verify, workspace, report, branch, host, owners, github}
//       → {model, git, core, recipe, structural} → {errors, redact, refusal, util}
//
// Type-only imports count: a type is part of what a module depends on.

/** Each tier, top down: a module may import its own tier (unless a rule below says otherwise) and any tier under it. */
const TIERS = [
  { name: 'cli', slug: 'cli', paths: ['^src/cli/'] },
  // The library's public entry (src/index.ts) is the API tier too: what a program imports.
  { name: 'api', slug: 'api', paths: ['^src/api/', '^src/index\\.ts$'] },
  // track/ follows a campaign's pull requests: it reads campaigns' clones and publishing's hosts.
  { name: 'campaign', slug: 'campaign', paths: ['^src/campaign/', '^src/track/'] },
  { name: 'publish and runner', slug: 'publish-runner', paths: ['^src/publish/', '^src/runner/'] },
  {
    name: 'services',
    slug: 'services',
    paths: ['^src/agent/', '^src/verify/', '^src/workspace/', '^src/report/', '^src/branch/', '^src/host/', '^src/owners/', '^src/github/'],
  },
  // recipe/ is data like model/ (the schema and its loader); it imports only the structural engine, which loads a
  // recipe's ast-grep rules and jscodeshift transforms with it (problems at file:line:col). structural/ is an engine
  // beside core/ (bytes in, values out) and imports only core/, errors and util/.
  {
    name: 'data, git and core',
    slug: 'data-git-core',
    paths: ['^src/model/', '^src/git/', '^src/core/', '^src/recipe/', '^src/structural/'],
  },
  { name: 'foundation', slug: 'foundation', paths: ['^src/errors\\.ts$', '^src/redact\\.ts$', '^src/refusal\\.ts$', '^src/util/'] },
];

const any = (paths) => `(${paths.join('|')})`;

/** One rule per tier: nothing it holds imports a tier above it. */
const layerRules = TIERS.slice(1).map((tier, i) => ({
  name: `layer-${tier.slug}`,
  comment: `${tier.name} sits below ${TIERS.slice(0, i + 1).map((t) => t.name).join(', ')}: imports point down only.`,
  severity: 'error',
  from: { path: any(tier.paths) },
  to: { path: any(TIERS.slice(0, i + 1).flatMap((t) => t.paths)) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'publish-beside-runner',
      comment: 'Publishing never imports the runner or campaigns: the branch rules they share live in src/branch/, below both.',
      severity: 'error',
      from: { path: '^src/publish/' },
      to: { path: '^src/(runner|campaign)/' },
    },
    {
      name: 'runner-beside-publish',
      comment: 'The runner never imports publishing or campaigns.',
      severity: 'error',
      from: { path: '^src/runner/' },
      to: { path: '^src/(publish|campaign)/' },
    },
    {
      name: 'only-git-imports-isomorphic-git',
      comment: 'The git layer is the only importer of isomorphic-git: every ref it would move goes through our lock-and-compare protocol.',
      severity: 'error',
      from: { pathNot: '^src/git/' },
      to: { path: '(^|/)node_modules/isomorphic-git/' },
    },
    {
      name: 'model-is-data',
      comment: 'model/ is the run as data: it never imports report, runner, git or publish.',
      severity: 'error',
      from: { path: '^src/model/' },
      to: { path: '^src/(report|runner|git|publish)/' },
    },
    {
      name: 'report-renders-a-model',
      comment: "report/ renders a model, nothing else: model/, the error kinds, util/, and core's Hunk type a model carries.",
      severity: 'error',
      from: { path: '^src/report/' },
      to: { path: '^src/', pathNot: '^src/(report|model|util)/|^src/errors\\.ts$|^src/core/types\\.ts$' },
    },
    {
      name: 'verify-not-runner-agent-git',
      comment: 'verify/ never imports the runner, the agent or git.',
      severity: 'error',
      from: { path: '^src/verify/' },
      to: { path: '^src/(runner|agent|git)/' },
    },
    {
      name: 'agent-not-git',
      comment: 'The agent never imports git: it edits through the workspace and the core.',
      severity: 'error',
      from: { path: '^src/agent/' },
      to: { path: '^src/git/' },
    },
    {
      name: 'core-is-pure',
      comment: 'core/ imports nothing of ours but errors (and util/).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/(core|util)/|^src/errors\\.ts$' },
    },
    {
      name: 'structural-is-an-engine',
      comment: 'structural/ (the ast-grep and jscodeshift engine) imports nothing of ours but core/, errors and util/.',
      severity: 'error',
      from: { path: '^src/structural/' },
      to: { path: '^src/', pathNot: '^src/(structural|core|util)/|^src/errors\\.ts$' },
    },
    {
      name: 'nothing-imports-the-library-entry',
      comment: "src/index.ts is for programs that use scion; scion's own modules import what they need directly.",
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/index\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'No import circles, the CLI included: a circle makes two modules one, whatever the folders say.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'cli-imports-only-api',
      comment: 'The CLI imports only the API tier (src/api/) and its own helpers: never git, workspace, runner, publish or campaign internals.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/', pathNot: '^src/(cli|api)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
