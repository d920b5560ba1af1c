import { returnRoutes } from '../../adapters/http/routes/returns.routes.js';
import { renderRefundReceiptPdf } from '../../adapters/receipts/pdf-refund-receipt.js';
import { getReturn, getReturnReceipt, listReturns } from '../../application/returns/read-returns.js';
import { recordReturn } from '../../application/returns/record-return.js';
import { inMemoryReturnsModule } from '../../adapters/persistence/in-memory/returns.in-memory.js';
import { sqlReturnsModule } from '../../adapters/persistence/sql/returns.sql.js';
import { RETURN_FAILURES } from '../../adapters/http/failures/returns.js';
import { defineModule, repositories } from './module.js';

/** Returns of sales and their refund receipts (docs/adr/0058). */
export const returnsModule = defineModule({
  name: 'returns',
  folders: ['returns'],
  repositories: [repositories(inMemoryReturnsModule, sqlReturnsModule)],
  failures: [RETURN_FAILURES],
  migrations: [{ name: 'Migration20261204100000_returns', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261204100000_returns.js')).Migration20261204100000_returns }],
  useCases: ({ deps, paging }) => ({
    recordReturn: recordReturn(deps),
    listReturns: listReturns(deps),
    getReturn: getReturn(deps),
    getReturnReceipt: getReturnReceipt(deps),
    renderRefundReceiptPdf,
    paging,
  }),
  routes: (uc) => returnRoutes(uc),
});
