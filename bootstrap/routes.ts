import type { RouteDef } from '../adapters/http/route.js';
import { googleRoutes, type GoogleUseCases } from '../adapters/http/routes/google.routes.js';
import { authRoutes, type AuthUseCases } from '../adapters/http/routes/auth.routes.js';
import { sessionRoutes, type SessionUseCases } from '../adapters/http/routes/sessions.routes.js';
import { businessRoutes, type BusinessUseCases } from '../adapters/http/routes/business.routes.js';
import { healthRoutes, type HealthDeps } from '../adapters/http/routes/health.routes.js';
import { staffRoutes, type StaffUseCases } from '../adapters/http/routes/staff.routes.js';
import { productRoutes, type ProductUseCases } from '../adapters/http/routes/products.routes.js';
import { productCsvRoutes, type ProductCsvUseCases } from '../adapters/http/routes/products-csv.routes.js';
import { stockTransferRoutes, type StockTransferUseCases } from '../adapters/http/routes/stock-transfers.routes.js';
import { salesRoutes, type SaleUseCases } from '../adapters/http/routes/sales.routes.js';
import { customerRoutes, type CustomerUseCases } from '../adapters/http/routes/customers.routes.js';
import { expenseRoutes, type ExpenseUseCases } from '../adapters/http/routes/expenses.routes.js';
import { reportRoutes, type ReportUseCases } from '../adapters/http/routes/reports.routes.js';
import { reportExportRoutes, type ReportExportUseCases } from '../adapters/http/routes/report-exports.routes.js';
import { loanPackRoutes, type LoanPackUseCases } from '../adapters/http/routes/loan-packs.routes.js';
import { paymentRoutes, type PaymentUseCases } from '../adapters/http/routes/payments.routes.js';
import { notificationRoutes, type NotificationUseCases } from '../adapters/http/routes/notifications.routes.js';
import { providerCallbackRoutes, type ProviderCallbackUseCases } from '../adapters/http/routes/provider-callbacks.routes.js';
import { partnerKeyRoutes, type PartnerKeyUseCases } from '../adapters/http/routes/partner-keys.routes.js';
import { businessPartnerRoutes, type BusinessPartnerUseCases } from '../adapters/http/routes/business-partner.routes.js';
import { partnerInsightRoutes, type PartnerInsightUseCases } from '../adapters/http/routes/partner-insights.routes.js';
import { partnerWebhookRoutes, type PartnerWebhookUseCases } from '../adapters/http/routes/partner-webhooks.routes.js';

/**
 * The whole route table, in the order the document lists it. Literal paths come before the
 * `/businesses/:id` pattern they would otherwise fall into (GET /businesses/staff).
 */
export const apiRoutes = (
  deps: AuthUseCases & GoogleUseCases & SessionUseCases & HealthDeps & BusinessUseCases & StaffUseCases & ProductUseCases & ProductCsvUseCases & StockTransferUseCases & SaleUseCases & CustomerUseCases & ReportExportUseCases & ExpenseUseCases & ReportUseCases & NotificationUseCases & LoanPackUseCases & PaymentUseCases & ProviderCallbackUseCases & PartnerKeyUseCases & BusinessPartnerUseCases & PartnerInsightUseCases & PartnerWebhookUseCases,
): RouteDef<any, any>[] => [
  ...healthRoutes(deps),
  ...authRoutes(deps),
  ...googleRoutes(deps),
  ...sessionRoutes(deps),
  ...staffRoutes(deps),
  ...businessPartnerRoutes(deps), // /businesses/me/partner before the /businesses/:id patterns
  ...businessRoutes(deps),
  ...productCsvRoutes(deps), // before GET /products/:id, which would take /products/export
  ...stockTransferRoutes(deps), // and /products/stock-transfers
  ...productRoutes(deps),
  ...salesRoutes(deps),
  ...customerRoutes(deps),
  ...reportExportRoutes(deps),
  ...expenseRoutes(deps), // /expenses/categories and /expenses/summary come before /expenses/:id inside
  ...reportRoutes(deps),
  ...notificationRoutes(deps), // /notifications/preferences comes before /notifications/:id inside
  ...loanPackRoutes(deps),
  ...paymentRoutes(deps),
  ...providerCallbackRoutes(deps), // Termii's and Meta's delivery reports (docs/adr/0030)
  ...partnerKeyRoutes(deps),
  ...partnerInsightRoutes(deps),
  ...partnerWebhookRoutes(deps),
];
