import type { AuditFilter, AuditRepositories } from '../../../application/audit/ports.js';
import { actorIdOf, type AuditEntry } from '../../../domain/audit.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy } from './rows.js';

/** The audit module's table: entries are only ever appended (docs/adr/0070). */
export interface AuditTables {
  auditLog: AuditEntry[];
}

const matches = (e: AuditEntry, businessId: string, f: AuditFilter) =>
  e.businessId === businessId &&
  (!f.action || e.action === f.action) &&
  (!f.actorId || actorIdOf(e.actor) === f.actorId) &&
  (!f.branchId || e.branchId === f.branchId) &&
  (!f.subjectType || e.subject.type === f.subjectType) &&
  (!f.subjectId || e.subject.id === f.subjectId);

/** The audit log in memory; before/after go through JSON, as in jsonb. */
export const inMemoryAuditModule: InMemoryModule<AuditTables, AuditRepositories> = {
  tables: () => ({ auditLog: [] }),
  repositories: (t) => ({
    auditLog: {
      append: async (entries) => {
        for (const e of entries) t.auditLog.push({ ...copy(e), before: JSON.parse(JSON.stringify(e.before)), after: JSON.parse(JSON.stringify(e.after)) });
      },
      list: async (businessId, page, filter) =>
        keysetPageInMemory(t.auditLog.filter((e) => matches(e, businessId, filter)).map(copy), page, {
          sortValue: (e) => e.at.toISOString(),
          id: (e) => e.id,
          searchText: (e) => [e.actor.name, e.subject.label],
          date: (e) => e.at,
        }),
    },
  }),
};
