// Following a run's pull requests to done: `scion track` (snapshots, burndown page, CSV, one tracking
// issue) and the bulk operations of `scion pr` (comment, close, ready, merge), both under one write
// budget per host and token (hostOptionsFor).
export { trackReport } from '../track/track-report.js';
export { TRACK_STATES } from '../track/types.js';
export { BULK_STATES, bulkPullRequests, type BulkAction, type BulkState } from '../track/bulk.js';
export { hostOptionsFor, waitLine, type BudgetFlags, type Clock, type HostOptions, type HostOptionsIo } from './host-options.js';
export type { MergeMethod } from '../host/types.js';
