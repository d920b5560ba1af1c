import { syncRoutes } from '../../adapters/http/routes/sync.routes.js';
import { pullChanges } from '../../application/sync/changes.js';
import { listConflicts, resolveConflict } from '../../application/sync/conflicts.js';
import { inMemorySyncModule } from '../../adapters/persistence/in-memory/sync.in-memory.js';
import { sqlSyncModule } from '../../adapters/persistence/sql/sync.sql.js';
import { SYNC_FAILURES } from '../../adapters/http/failures/sync.js';
import { defineModule, repositories } from './module.js';

/** Offline sync: the batch, conflicts and changes (docs/adr/0034). Last: the batch runs every earlier module's routes. */
export const syncModule = defineModule({
  name: 'sync',
  folders: ['sync'],
  repositories: [repositories(inMemorySyncModule, sqlSyncModule)],
  failures: [SYNC_FAILURES],
  migrations: [
    { name: 'Migration20261127800000_offline_sync', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261127800000_offline_sync.js')).Migration20261127800000_offline_sync },
    { name: 'Migration20261128000000_sync_changes', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261128000000_sync_changes.js')).Migration20261128000000_sync_changes },
  ],
  useCases: ({ deps, persistence, jobs, clock, config, paging }) => ({
    sync: { idempotency: persistence.idempotency, uow: jobs.uow, clock, errorTypeBase: config.ERROR_TYPE_BASE },
    listConflicts: listConflicts(deps),
    resolveConflict: resolveConflict(deps),
    pullChanges: pullChanges(deps),
    paging,
  }),
  // The batch runs the single endpoints' routes, so an operation answers exactly as its endpoint would.
  routes: (uc, before) => syncRoutes(uc, before),
});
