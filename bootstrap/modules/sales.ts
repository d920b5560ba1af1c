import { salesRoutes } from '../../adapters/http/routes/sales.routes.js';
import { renderReceiptPdf } from '../../adapters/receipts/pdf-receipt.js';
import { getReceipt, getSale, listSales } from '../../application/sales/read-sales.js';
import { recordSale } from '../../application/sales/record-sale.js';
import { voidSale } from '../../application/sales/void-sale.js';
import { returnsOfSale } from '../../application/returns/read-returns.js';
import { inMemorySalesModule } from '../../adapters/persistence/in-memory/sales.in-memory.js';
import { sqlSalesModule } from '../../adapters/persistence/sql/sales.sql.js';
import { SALE_FAILURES } from '../../adapters/http/failures/sales.js';
import { defineModule, repositories } from './module.js';

/** Sales, voids and receipts. */
export const salesModule = defineModule({
  name: 'sales',
  folders: ['sales'],
  repositories: [repositories(inMemorySalesModule, sqlSalesModule)],
  failures: [SALE_FAILURES],
  migrations: [
    { name: 'Migration20261122030000_sales', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261122030000_sales.js')).Migration20261122030000_sales },
    { name: 'Migration20261124100000_features', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261124100000_features.js')).Migration20261124100000_features },
    { name: 'Migration20261127000000_sale_cost_of_goods', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261127000000_sale_cost_of_goods.js')).Migration20261127000000_sale_cost_of_goods },
    { name: 'Migration20261202390000_sales_by_device', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261202390000_sales_by_device.js')).Migration20261202390000_sales_by_device },
  ],
  useCases: ({ deps, paging }) => ({
    recordSale: recordSale(deps),
    listSales: listSales(deps),
    getSale: getSale(deps),
    voidSale: voidSale(deps),
    getReceipt: getReceipt(deps),
    // a sale's answers show its returns and its total net of them (docs/adr/0058)
    returnsOfSale: returnsOfSale(deps),
    renderReceiptPdf,
    paging,
  }),
  routes: (uc) => salesRoutes(uc),
});
