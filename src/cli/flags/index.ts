// Every flag of every command and every rule about them, in this folder: the flags described once as
// data (run-options.ts, command-options.ts: yargs reads them for parsing and --help, the usage checks
// read the same names for "did you mean"), their rules in rules.ts, checked inside yargs' parse by the
// builders below, so a mistake ends the parse before any command runs or anything is pushed; the
// library's option names said as flags in words.ts.
import type { Argv } from 'yargs';
import {
  BRANCHES_OPTIONS,
  LIST_OPTIONS,
  MERGE_REPORTS_OPTIONS,
  OWNERS_OPTIONS,
  PR_OPTIONS,
  STATUS_OPTIONS,
  TRACK_OPTIONS,
  WORKTREES_OPTIONS,
} from './command-options.js';
import { checkPrFlags, checkRunFlags, checkTrackFlags } from './rules.js';
import { COMMON_RUN_OPTIONS, PLAN_ONLY_OPTIONS, PR_LIFECYCLE_OPTIONS, RUN_ONLY_OPTIONS } from './run-options.js';

export function runFlags<T>(y: Argv<T>) {
  return y.options(COMMON_RUN_OPTIONS).options(RUN_ONLY_OPTIONS).options(PR_LIFECYCLE_OPTIONS).check(checkRunFlags);
}

export function planFlags<T>(y: Argv<T>) {
  return y.options(COMMON_RUN_OPTIONS).options(PLAN_ONLY_OPTIONS).check(checkRunFlags);
}

export function prFlags<T>(y: Argv<T>) {
  return y.options(PR_OPTIONS).options(PR_LIFECYCLE_OPTIONS).check(checkPrFlags);
}

export const trackFlags = <T>(y: Argv<T>) => y.options(TRACK_OPTIONS).check(checkTrackFlags);
export const statusFlags = <T>(y: Argv<T>) => y.options(STATUS_OPTIONS);
export const branchesFlags = <T>(y: Argv<T>) => y.options(BRANCHES_OPTIONS);
export const worktreesFlags = <T>(y: Argv<T>) => y.options(WORKTREES_OPTIONS);
export const listFlags = <T>(y: Argv<T>) => y.options(LIST_OPTIONS);
export const mergeReportsFlags = <T>(y: Argv<T>) => y.options(MERGE_REPORTS_OPTIONS);
export const ownersFlags = <T>(y: Argv<T>) => y.options(OWNERS_OPTIONS);
