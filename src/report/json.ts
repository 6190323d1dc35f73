// The JSON report exactly as the types hold it: 2-space indent, trailing newline.
import type { RunReport } from '../model/types.js';

export function renderJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
