import { inMemoryHousekeepingModule } from '../../adapters/persistence/in-memory/housekeeping.in-memory.js';
import { sqlHousekeepingModule } from '../../adapters/persistence/sql/housekeeping.sql.js';
import { defineModule, repositories } from './module.js';

/**
 * The operator's side of the tables (docs/adr/0065, 0068): no routes. Retention runs as a periodic
 * task (bootstrap/jobs.ts) and the metrics read its gauges (bootstrap/metrics.ts).
 */
export const housekeepingModule = defineModule({
  name: 'housekeeping',
  folders: ['housekeeping'],
  repositories: [repositories(inMemoryHousekeepingModule, sqlHousekeepingModule)],
  useCases: () => ({}),
  routes: () => [],
});
