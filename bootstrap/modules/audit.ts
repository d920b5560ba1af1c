import { auditRoutes } from '../../adapters/http/routes/audit.routes.js';
import { inMemoryAuditModule } from '../../adapters/persistence/in-memory/audit.in-memory.js';
import { sqlAuditModule } from '../../adapters/persistence/sql/audit.sql.js';
import { exportAuditLog, listAuditLog } from '../../application/audit/read-audit-log.js';
import { defineModule, repositories } from './module.js';

/** The owners' audit log (issue 36): its entries are written by the unit of work from the events (bootstrap/jobs.ts), read here. */
export const auditModule = defineModule({
  name: 'audit',
  folders: ['audit'],
  repositories: [repositories(inMemoryAuditModule, sqlAuditModule)],
  failures: [],
  migrations: [{ name: 'Migration20261204000000_audit_log', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261204000000_audit_log.js')).Migration20261204000000_audit_log }],
  useCases: ({ deps, paging }) => ({
    listAuditLog: listAuditLog(deps),
    exportAuditLog: exportAuditLog(deps),
    paging,
  }),
  routes: (uc) => auditRoutes(uc),
});
