import { reportExportRoutes } from '../../adapters/http/routes/report-exports.routes.js';
import { exportCashFlow } from '../../application/report-exports/export-cash-flow.js';
import { exportInventory, exportProfitLoss } from '../../application/report-exports/export-reports.js';
import { exportSales } from '../../application/report-exports/export-sales.js';
import { exportVat } from '../../application/report-exports/export-vat.js';
import { inMemoryReportExportsModule } from '../../adapters/persistence/in-memory/report-exports.in-memory.js';
import { sqlReportExportsModule } from '../../adapters/persistence/sql/report-exports.sql.js';
import { defineModule, repositories } from './module.js';

/** Reports as files (CSV, XLSX, PDF), read from the reports connection. */
export const reportExportsModule = defineModule({
  name: 'report-exports',
  folders: ['report-exports'],
  repositories: [repositories(inMemoryReportExportsModule, sqlReportExportsModule)],
  failures: [],
  migrations: [],
  useCases: ({ reportDeps }) => ({
    exportSales: exportSales(reportDeps),
    exportCashFlow: exportCashFlow(reportDeps),
    exportProfitLoss: exportProfitLoss(reportDeps),
    exportInventory: exportInventory(reportDeps),
    exportVat: exportVat(reportDeps),
  }),
  routes: (uc) => reportExportRoutes(uc),
});
