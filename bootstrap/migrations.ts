import type { ListedMigration } from '../adapters/persistence/sql/orm.js';
import { MODULES } from './modules/index.js';
import type { AnyModule } from './modules/module.js';

/**
 * The history no one module owns: the foundation (several modules' first tables), idempotency and
 * memberships, the outbox, every tenant table's key, the member-change trigger, the traceparent
 * columns and retention's indexes (issue 36: they span several modules' tables), split payments and
 * VAT (issue 34: sales, businesses, products and expenses together, docs/adr/0054, 0055).
 */
export const CORE_MIGRATIONS: readonly ListedMigration[] = [
  { name: 'Migration20261122000000_foundation', load: async () => (await import('../adapters/persistence/sql/migrations/Migration20261122000000_foundation.js')).Migration20261122000000_foundation },
  { name: 'Migration20261124000000_faults', load: async () => (await import('../adapters/persistence/sql/migrations/Migration20261124000000_faults.js')).Migration20261124000000_faults },
  { name: 'Migration20261126120000_outbox', load: async () => (await import('../adapters/persistence/sql/migrations/Migration20261126120000_outbox.js')).Migration20261126120000_outbox },
  { name: 'Migration20261127700000_tenant_keys', load: async () => (await import('../adapters/persistence/sql/migrations/Migration20261127700000_tenant_keys.js')).Migration20261127700000_tenant_keys },
  { name: 'Migration20261201000000_member_change_notices', load: async () => (await import('../adapters/persistence/sql/migrations/Migration20261201000000_member_change_notices.js')).Migration20261201000000_member_change_notices },
  // issue 36: the traceparent on the outbox and webhook deliveries, and retention's indexes on several modules' tables
  { name: 'Migration20261204000000_traceparent', load: async () => (await import('../adapters/persistence/sql/migrations/Migration20261204000000_traceparent.js')).Migration20261204000000_traceparent },
  { name: 'Migration20261204010000_retention', load: async () => (await import('../adapters/persistence/sql/migrations/Migration20261204010000_retention.js')).Migration20261204010000_retention },
  { name: 'Migration20261205000000_vat_and_tenders', load: async () => (await import('../adapters/persistence/sql/migrations/Migration20261205000000_vat_and_tenders.js')).Migration20261205000000_vat_and_tenders },
];

/**
 * Every migration, the core's and each manifest's, in name order (a name starts with its time, so
 * the history runs as it was written across modules; docs/adr/0062). Listed, not globbed: nothing
 * reads the folder at start. A name twice throws (test/unit/bootstrap/modules.test.ts checks the folder).
 */
export const migrationsOf = (modules: readonly AnyModule[]): ListedMigration[] => {
  const all = [...CORE_MIGRATIONS, ...modules.flatMap((m) => m.migrations)];
  const names = all.map((m) => m.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new Error(`migrations listed twice: ${twice.join(', ')}`);
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
};

export const MIGRATIONS = migrationsOf(MODULES);
