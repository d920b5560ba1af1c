import { reportRoutes } from '../../adapters/http/routes/reports.routes.js';
import { getDailySummary, getDashboard, getInventory, getProfitLoss, getSalesByCategory, getTopServices, getVatReport } from '../../application/reports/reports.js';
import { inMemoryReportsModule } from '../../adapters/persistence/in-memory/reports.in-memory.js';
import { sqlReportsModule } from '../../adapters/persistence/sql/reports.sql.js';
import { REPORT_FAILURES } from '../../adapters/http/failures/reports.js';
import { defineModule, repositories } from './module.js';

/** The dashboard and reports, read from the reports connection (a replica when there is one). */
export const reportsModule = defineModule({
  name: 'reports',
  folders: ['reports'],
  repositories: [repositories(inMemoryReportsModule, sqlReportsModule)],
  failures: [REPORT_FAILURES],
  // indexes for the reports' date ranges on the customers' and invoices' tables (issue 37)
  migrations: [{ name: 'Migration20261208000000_report_ranges', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261208000000_report_ranges.js')).Migration20261208000000_report_ranges }],
  useCases: ({ reportDeps, dataAsOf }) => ({
    getDashboard: getDashboard(reportDeps),
    getTopServices: getTopServices(reportDeps),
    getProfitLoss: getProfitLoss(reportDeps),
    getInventory: getInventory(reportDeps),
    getDailySummary: getDailySummary(reportDeps),
    getSalesByCategory: getSalesByCategory(reportDeps),
    getVatReport: getVatReport(reportDeps),
    dataAsOf,
  }),
  routes: (uc) => reportRoutes(uc),
});
