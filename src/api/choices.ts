// The values some flags may take, as the library defines them. The command line's flag rules read them
// while parsing, before any command is loaded: this module imports data only (no host client, no git).
export { BULK_STATES, type BulkState } from '../track/types.js';
export { MERGE_METHODS, type MergeMethod } from '../host/types.js';
