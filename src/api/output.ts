// What a run's report becomes for people and for other programs: JSON, Markdown (PR body, step
// summary), a patch, `--stat` lines, the terminal summary and diffs, GitHub outputs and annotations,
// the status table, and the redaction every one of them passes through. Pure renderers of a report.
export { renderJson } from '../report/json.js';
export { renderPrBody, renderSummary } from '../report/markdown.js';
export { renderPatch, renderStat } from '../report/patch.js';
export { planDiffRenderer, renderSummaryText } from '../report/terminal.js';
export { repoShown } from '../report/summary-data.js';
export { renderStatusTable } from '../publish/status.js';
export { githubOutputs } from '../github/outputs.js';
export { runAnnotations } from '../verify/annotations.js';
export { formatProblem, type Problem } from '../recipe/index.js';
export type { RunReport, JobReport, FileReport } from '../model/types.js';
export type { RunEvent, PlannedJob } from '../runner/types.js';
