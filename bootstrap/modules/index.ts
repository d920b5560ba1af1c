import { auditModule } from './audit.js';
import { authModule } from './auth.js';
import { businessModule } from './business.js';
import { customersModule } from './customers.js';
import { expensesModule } from './expenses.js';
import { healthModule } from './health.js';
import { loanPacksModule } from './loan-packs.js';
import type { AnyModule } from './module.js';
import { notificationsModule } from './notifications.js';
import { partnerNetworkModule } from './partner-network.js';
import { partnersModule } from './partners.js';
import { productsModule } from './products.js';
import { providerCallbacksModule } from './provider-callbacks.js';
import { reportExportsModule } from './report-exports.js';
import { reportsModule } from './reports.js';
import { salesModule } from './sales.js';
import { returnsModule } from './returns.js';
import { invoicesModule } from './invoices.js';
import { staffModule } from './staff.js';
import { syncModule } from './sync.js';

/**
 * Every module, in the order the route table and the document list their routes (docs/adr/0052).
 * A new module is its manifest file beside this one and one line here. Literal paths come before
 * the patterns they would otherwise fall into: /businesses/me/partner (partner-network) before
 * /businesses/:id (business).
 */
export const MODULES = [
  healthModule,
  authModule,
  staffModule,
  partnerNetworkModule,
  businessModule,
  productsModule,
  salesModule,
  returnsModule,
  invoicesModule,
  customersModule,
  reportExportsModule,
  expensesModule,
  reportsModule,
  notificationsModule,
  loanPacksModule,
  providerCallbacksModule,
  partnersModule,
  auditModule,
  syncModule,
] as const satisfies readonly AnyModule[];
