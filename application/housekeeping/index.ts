/** The public surface of application/housekeeping/ (retention and the operator's readings): what application/index.ts exports of it. */
export type { HousekeepingRepository, HousekeepingRepositories } from './ports.js';
export { pruneOldRows, type PruneDeps, type PruneOptions, type PruneReport } from './prune-old-rows.js';
