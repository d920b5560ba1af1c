import { salesRoutes } from '../../adapters/http/routes/sales.routes.js';
import { renderReceiptPdf } from '../../adapters/receipts/pdf-receipt.js';
import { getReceipt, getSale, listSales } from '../../application/sales/read-sales.js';
import { recordSale } from '../../application/sales/record-sale.js';
import { voidSale } from '../../application/sales/void-sale.js';
import { returnsOfSale } from '../../application/returns/read-returns.js';
import { inMemorySalesModule } from '../../adapters/persistence/in-memory/sales.in-memory.js';
import { sqlSalesModule } from '../../adapters/persistence/sql/sales.sql.js';
import { defineModule, repositories } from './module.js';

/** Sales, voids and receipts. */
export const salesModule = defineModule({
  name: 'sales',
  folders: ['sales'],
  repositories: [repositories(inMemorySalesModule, sqlSalesModule)],
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
