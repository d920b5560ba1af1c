import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_foundation } from '../adapters/persistence/sql/migrations/Migration20261122000000_foundation.js';
import { Migration20261124000000_faults } from '../adapters/persistence/sql/migrations/Migration20261124000000_faults.js';
import { Migration20261126120000_outbox } from '../adapters/persistence/sql/migrations/Migration20261126120000_outbox.js';
import { Migration20261127700000_tenant_keys } from '../adapters/persistence/sql/migrations/Migration20261127700000_tenant_keys.js';
import { Migration20261201000000_member_change_notices } from '../adapters/persistence/sql/migrations/Migration20261201000000_member_change_notices.js';
import { Migration20261204000000_traceparent } from '../adapters/persistence/sql/migrations/Migration20261204000000_traceparent.js';
import { Migration20261204010000_retention } from '../adapters/persistence/sql/migrations/Migration20261204010000_retention.js';
import { Migration20261205000000_vat_and_tenders } from '../adapters/persistence/sql/migrations/Migration20261205000000_vat_and_tenders.js';
import { MODULES } from './modules/index.js';
import type { AnyModule } from './modules/module.js';

/**
 * The history no one module owns: the foundation (several modules' first tables), idempotency and
 * memberships, the outbox, every tenant table's key, the member-change trigger, the traceparent
 * columns and retention's indexes (issue 36: they span several modules' tables), split payments and
 * VAT (issue 34: sales, businesses, products and expenses together, docs/adr/0054, 0055).
 */
export const CORE_MIGRATIONS: readonly MigrationObject[] = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
  { name: 'Migration20261124000000_faults', class: Migration20261124000000_faults },
  { name: 'Migration20261126120000_outbox', class: Migration20261126120000_outbox },
  { name: 'Migration20261127700000_tenant_keys', class: Migration20261127700000_tenant_keys },
  { name: 'Migration20261201000000_member_change_notices', class: Migration20261201000000_member_change_notices },
  // issue 36: the traceparent on the outbox and webhook deliveries, and retention's indexes on several modules' tables
  { name: 'Migration20261204000000_traceparent', class: Migration20261204000000_traceparent },
  { name: 'Migration20261204010000_retention', class: Migration20261204010000_retention },
  { name: 'Migration20261205000000_vat_and_tenders', class: Migration20261205000000_vat_and_tenders },
];

/**
 * Every migration, the core's and each manifest's, in name order (a name starts with its time, so
 * the history runs as it was written across modules; docs/adr/0062). Listed, not globbed: nothing
 * reads the folder at start. A name twice throws (test/unit/bootstrap/modules.test.ts checks the folder).
 */
export const migrationsOf = (modules: readonly AnyModule[]): MigrationObject[] => {
  const all = [...CORE_MIGRATIONS, ...modules.flatMap((m) => m.migrations)];
  const names = all.map((m) => m.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new Error(`migrations listed twice: ${twice.join(', ')}`);
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
};

export const MIGRATIONS = migrationsOf(MODULES);
