import { reportRoutes } from '../../adapters/http/routes/reports.routes.js';
import { getDailySummary, getDashboard, getInventory, getProfitLoss, getSalesByCategory, getTopServices, getVatReport } from '../../application/reports/reports.js';
import { rollUpReportDays } from '../../application/reports/roll-up-days.js';
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
  migrations: [
    { name: 'Migration20261208000000_report_ranges', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261208000000_report_ranges.js')).Migration20261208000000_report_ranges },
    // completed sales by day for days that are over, and the trigger that marks a changed one (docs/adr/0086)
    { name: 'Migration20261209000000_report_day_totals', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261209000000_report_day_totals.js')).Migration20261209000000_report_day_totals },
  ],
  // on the primary, not the reports connection; a failed run is not retried: the next minute takes what it left
  periodicTasks: (d) => [{ name: 'report-day-totals', run: async () => void (await rollUpReportDays(d)()) }],
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
