import { customerRoutes } from '../../adapters/http/routes/customers.routes.js';
import { agingReport, getCreditSummary, listCreditTransactions, recordCreditPayment } from '../../application/customers/credit.js';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from '../../application/customers/manage-customers.js';
import { inMemoryCustomersModule } from '../../adapters/persistence/in-memory/customers.in-memory.js';
import { sqlCustomersModule } from '../../adapters/persistence/sql/customers.sql.js';
import { CUSTOMER_FAILURES } from '../../adapters/http/failures/customers.js';
import { defineModule, repositories } from './module.js';

/** Customers and their credit. */
export const customersModule = defineModule({
  name: 'customers',
  folders: ['customers'],
  repositories: [repositories(inMemoryCustomersModule, sqlCustomersModule)],
  failures: [CUSTOMER_FAILURES],
  migrations: [
    { name: 'Migration20261122040000_credit', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261122040000_credit.js')).Migration20261122040000_credit },
    // the aging report from the open debts' index alone (docs/adr/0086)
    { name: 'Migration20261209100000_aging_covering', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261209100000_aging_covering.js')).Migration20261209100000_aging_covering },
  ],
  useCases: ({ deps, reportDeps, paging }) => ({
    createCustomer: createCustomer(deps),
    updateCustomer: updateCustomer(deps),
    getCustomer: getCustomer(deps),
    listCustomers: listCustomers(deps),
    recordCreditPayment: recordCreditPayment(deps),
    getCreditSummary: getCreditSummary(deps),
    listCreditTransactions: listCreditTransactions(deps),
    agingReport: agingReport(reportDeps),
    paging,
  }),
  routes: (uc) => customerRoutes(uc),
});
