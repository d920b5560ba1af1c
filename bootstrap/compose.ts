import type { Logger } from 'pino';
import { checkVerificationCode } from '../application/auth/check-verification-code.js';
import { getMe } from '../application/auth/get-me.js';
import { linkGoogleIdentity, signInWithGoogle } from '../application/auth/google-sign-in.js';
import { joseGoogleVerifier } from '../adapters/auth/google-id-token.js';
import { endSession, listSessions, logout } from '../application/auth/manage-sessions.js';
import { refreshSession } from '../application/auth/refresh-session.js';
import { register } from '../application/auth/register.js';
import { requestSignInCode } from '../application/auth/request-sign-in-code.js';
import { sendVerificationCode } from '../application/auth/send-verification-code.js';
import { verifySignInCode } from '../application/auth/verify-sign-in-code.js';
import type { Clock } from '../application/ports/clock.js';
import type { MessageSender } from '../application/ports/message-sender.js';
import { joseTokenIssuer, joseTokenVerifier, rememberingVerifier, signingKeyFromDataDir, signingKeyFromPem, type SigningKey } from '../adapters/auth/jose-tokens.js';
import { nodeCrypto, secretFromDataDir } from '../adapters/crypto/node-crypto.js';
import { createApp } from '../adapters/http/app.js';
import { syncRoutes } from '../adapters/http/routes/sync.routes.js';
import { apiRoutes } from './routes.js';
import { listConflicts, resolveConflict } from '../application/sync/conflicts.js';
import { pullChanges } from '../application/sync/changes.js';
import { buildOpenApi } from '../adapters/http/openapi.js';
import { createRateLimits } from '../adapters/http/rate-limit.js';
import { parseTestIdentifiers } from '../domain/otp-test-identifiers.js';
import { getStockTransfer, listStockTransfers, transferStock } from '../application/products/transfer-stock.js';
import { productsWithStock } from '../application/products/branch-stock.js';
import { exportProducts } from '../application/products/export-products.js';
import { importProducts } from '../application/products/import-products.js';
import { createExpense, deleteExpense, expenseSummary, getExpense, listExpenses, updateExpense } from '../application/expenses/manage-expenses.js';
import { createExpenseCategory, deleteExpenseCategory, listExpenseCategories, renameExpenseCategory } from '../application/expenses/manage-categories.js';
import { getDailySummary, getDashboard, getInventory, getProfitLoss, getSalesByCategory, getTopServices } from '../application/reports/reports.js';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from '../application/customers/manage-customers.js';
import { agingReport, getCreditSummary, listCreditTransactions, recordCreditPayment } from '../application/customers/credit.js';
import { recordSale } from '../application/sales/record-sale.js';
import { voidSale } from '../application/sales/void-sale.js';
import { getReceipt, getSale, listSales } from '../application/sales/read-sales.js';
import { exportCashFlow } from '../application/report-exports/export-cash-flow.js';
import { exportInventory, exportProfitLoss } from '../application/report-exports/export-reports.js';
import { exportSales } from '../application/report-exports/export-sales.js';
import { archiveProduct, createProduct, getProduct, listCategories, listProducts, restoreProduct, updateProduct } from '../application/products/manage-products.js';
import { adjustStock, getStockMovement, listStockMovements } from '../application/products/adjust-stock.js';
import { createPaging } from '../adapters/http/paging.js';
import { renderReceiptPdf } from '../adapters/receipts/pdf-receipt.js';
import { renderLoanPackPdf } from '../adapters/loan-packs/pdf-loan-pack.js';
import { resolveActor } from '../application/auth/resolve-actor.js';
import { getBusiness } from '../application/business/get-business.js';
import { getPlanUsage } from '../application/business/plan-usage.js';
import { updateBusiness } from '../application/business/update-business.js';
import { createBranch, deleteBranch, getBranch, listBranches, updateBranch } from '../application/branches/manage-branches.js';
import { deactivateStaffMember, getStaffMember, inviteStaff, listStaff, updateStaffMember } from '../application/staff/manage-staff.js';
import * as E from 'fp-ts/lib/Either.js';
import { createLoanPack } from '../application/loan-packs/create-loan-pack.js';
import { receivePaymentWebhook, startLoanPackCheckout, verifyLoanPackPayment } from '../application/loan-packs/pay-loan-pack.js';
import { downloadLoanPack, getLoanPack, listLoanPacks, verifyLoanPackDocument } from '../application/loan-packs/read-loan-packs.js';
import { paymentGateway } from './payments.js';
import { messageSender } from './messaging.js';
import { sendNotification } from '../application/notifications/send-notification.js';
import { getNotification, getNotificationPreferences, listNotifications, updateNotificationPreferences } from '../application/notifications/manage-notifications.js';
import { recordDeliveryReport } from '../application/notifications/deliver-notifications.js';
import type { DispatcherOptions } from '../application/events/dispatcher.js';
import type { JobQueue } from '../application/ports/job-queue.js';
import { composeJobs } from './jobs.js';
import { getBusinessPartner, joinPartnerNetwork, leavePartnerNetwork } from '../application/partners/network.js';
import { getNetworkMerchant, listNetworkMerchants, networkAnalytics, setPartnerBranding } from '../application/partners/insights.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhookDeliveries, listWebhooks, redeliverWebhook, rotateWebhookSecret, testWebhook, updateWebhook } from '../application/partners/manage-webhooks.js';
import { webhookUrlRefusal } from '../adapters/webhooks/url-policy.js';
import { authenticatePartnerKey, createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '../application/partners/api-keys.js';
import { kobo } from '../domain/money.js';
import type { Config } from './config.js';
import type { Persistence } from './persistence.js';

export const VERSION = '0.1.0';
/** Why the per-request check refused a token, as the HTTP edge's error code. */
const REFUSAL = { AccountDeactivated: 'ACCOUNT_DEACTIVATED', SessionRevoked: 'SESSION_REVOKED', StaleToken: 'TOKEN_INVALID' } as const;
const HEALTH_TIMEOUT_MS = 2000;

export interface Overrides {
  readonly clock?: Clock;
  readonly messages?: MessageSender;
  readonly redis?: unknown;
  readonly dispatcher?: Partial<DispatcherOptions>;
  readonly jobs?: JobQueue;
}

/** The one place adapters are constructed and wired to the use cases and the HTTP edge. */
export const compose = async (config: Config, persistence: Persistence, logger: Logger, overrides: Overrides = {}) => {
  const clock: Clock = overrides.clock ?? { now: () => new Date() };
  const key: SigningKey = config.JWT_PRIVATE_KEY ? await signingKeyFromPem(config.JWT_PRIVATE_KEY) : await signingKeyFromDataDir(config.DATA_DIR);
  const otpSecret = config.OTP_SECRET ? Buffer.from(config.OTP_SECRET, 'base64') : secretFromDataDir(config.DATA_DIR, 'otp-secret');
  const crypto = nodeCrypto(otpSecret);
  const tokenSettings = { issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE };
  const tokens = joseTokenIssuer(key, tokenSettings, crypto.uuid);
  const messages = overrides.messages ?? messageSender(config, logger).sender;
  // Subscribers and periodic tasks are listed in bootstrap/jobs.ts; `uow` delivers a change's events right after its commit.
  const { dispatcher, jobs, uow, runScheduledNotifications, runWebhookDeliveries, webhooks } = composeJobs(config, persistence, logger, { messages, clock, crypto }, overrides);
  const testSignIn = config.OTP_TEST_MODE ? parseTestIdentifiers(config.OTP_TEST_IDENTIFIERS) : undefined;
  if (testSignIn) logger.warn({ identifiers: config.OTP_TEST_IDENTIFIERS }, 'OTP test mode is on: these identifiers sign in with 000000 and get no message');
  // Google sign-in is on when a client id is configured (docs/adr/0027).
  const google =
    config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_ID.length > 0
      ? joseGoogleVerifier({ clientIds: config.GOOGLE_CLIENT_ID, jwksUrl: config.GOOGLE_JWKS_URL, jwksTimeoutMs: config.GOOGLE_JWKS_TIMEOUT_MS }, clock)
      : undefined;
  const payments = paymentGateway(config, clock, logger, otpSecret);
  const deps = { uow, clock, crypto, tokens, ...(testSignIn ? { testSignIn } : {}), ...(google ? { google } : {}) };
  // Reports and exports read from REPORTS_DATABASE_URL when set (a replica; docs/adr/0035), never write there.
  const reportDeps = persistence.reports ? { ...deps, uow: persistence.reports.uow } : deps;
  const dataAsOf = persistence.reports ? persistence.reports.dataAsOf : async () => null;
  const paging = createPaging(otpSecret);
  const webhookDeps = { ...deps, ...webhooks, urlRefusal: webhookUrlRefusal(config.WEBHOOKS_ALLOW_PRIVATE) };

  const singleRoutes = apiRoutes({
    register: register(deps),
    requestSignInCode: requestSignInCode(deps),
    verifySignInCode: verifySignInCode(deps),
    refreshSession: refreshSession(deps),
    sendVerificationCode: sendVerificationCode(deps),
    checkVerificationCode: checkVerificationCode(deps),
    getMe: getMe(deps),
    signInWithGoogle: signInWithGoogle(deps),
    linkGoogleIdentity: linkGoogleIdentity(deps),
    logout: logout(deps),
    listSessions: listSessions(deps),
    endSession: endSession(deps),
    pingDatabase: () => persistence.ping(HEALTH_TIMEOUT_MS),
    otpTestMode: testSignIn !== undefined,
    getBusiness: getBusiness(deps),
    getPlanUsage: getPlanUsage(deps),
    updateBusiness: updateBusiness(deps),
    createBranch: createBranch(deps),
    listBranches: listBranches(deps),
    getBranch: getBranch(deps),
    updateBranch: updateBranch(deps),
    deleteBranch: deleteBranch(deps),
    inviteStaff: inviteStaff(deps),
    listStaff: listStaff(deps),
    getStaffMember: getStaffMember(deps),
    updateStaffMember: updateStaffMember(deps),
    deactivateStaffMember: deactivateStaffMember(deps),
    createProduct: createProduct(deps),
    getProduct: getProduct(deps),
    listProducts: listProducts(deps),
    listCategories: listCategories(deps),
    updateProduct: updateProduct(deps),
    archiveProduct: archiveProduct(deps),
    restoreProduct: restoreProduct(deps),
    adjustStock: adjustStock(deps),
    listStockMovements: listStockMovements(deps),
    getStockMovement: getStockMovement(deps),
    productsWithStock: productsWithStock(deps),
    transferStock: transferStock(deps),
    listStockTransfers: listStockTransfers(deps),
    getStockTransfer: getStockTransfer(deps),
    importProducts: importProducts(deps),
    exportProducts: exportProducts(deps),
    recordSale: recordSale(deps),
    listSales: listSales(deps),
    getSale: getSale(deps),
    voidSale: voidSale(deps),
    getReceipt: getReceipt(deps),
    renderReceiptPdf,
    createCustomer: createCustomer(deps),
    updateCustomer: updateCustomer(deps),
    getCustomer: getCustomer(deps),
    listCustomers: listCustomers(deps),
    recordCreditPayment: recordCreditPayment(deps),
    getCreditSummary: getCreditSummary(deps),
    listCreditTransactions: listCreditTransactions(deps),
    agingReport: agingReport(reportDeps),
    exportSales: exportSales(reportDeps),
    exportCashFlow: exportCashFlow(reportDeps),
    exportProfitLoss: exportProfitLoss(reportDeps),
    exportInventory: exportInventory(reportDeps),
    createExpense: createExpense(deps),
    updateExpense: updateExpense(deps),
    getExpense: getExpense(deps),
    listExpenses: listExpenses(deps),
    deleteExpense: deleteExpense(deps),
    expenseSummary: expenseSummary(deps),
    listExpenseCategories: listExpenseCategories(deps),
    createExpenseCategory: createExpenseCategory(deps),
    renameExpenseCategory: renameExpenseCategory(deps),
    deleteExpenseCategory: deleteExpenseCategory(deps),
    getDashboard: getDashboard(reportDeps),
    getTopServices: getTopServices(reportDeps),
    getProfitLoss: getProfitLoss(reportDeps),
    getInventory: getInventory(reportDeps),
    getDailySummary: getDailySummary(reportDeps),
    getSalesByCategory: getSalesByCategory(reportDeps),
    dataAsOf,
    sendNotification: sendNotification(deps),
    getNotification: getNotification(deps),
    listNotifications: listNotifications(deps),
    getNotificationPreferences: getNotificationPreferences(deps),
    updateNotificationPreferences: updateNotificationPreferences(deps),
    createLoanPack: createLoanPack({ ...deps, loanPackPrice: kobo(config.LOAN_PACK_PRICE_NGN * 100) }),
    listLoanPacks: listLoanPacks(deps),
    getLoanPack: getLoanPack(deps),
    startLoanPackCheckout: startLoanPackCheckout({ ...deps, gateway: payments.gateway }),
    verifyLoanPackPayment: verifyLoanPackPayment({ ...deps, ...payments }),
    downloadLoanPack: downloadLoanPack(deps),
    verifyLoanPackDocument: verifyLoanPackDocument(deps),
    renderLoanPackPdf,
    loanPackVerifyUrl: (pack) => `${config.PUBLIC_BASE_URL.replace(/\/+$/, '')}/api/v1/loan-packs/verify/${pack.reference}?hash=${pack.sha256}`,
    receivePaymentWebhook: receivePaymentWebhook({ ...deps, ...payments }),
    sandbox: payments.sandbox,
    clock,
    getBusinessPartner: getBusinessPartner(deps),
    joinPartnerNetwork: joinPartnerNetwork(deps),
    leavePartnerNetwork: leavePartnerNetwork(deps),
    listNetworkMerchants: listNetworkMerchants(deps),
    getNetworkMerchant: getNetworkMerchant(deps),
    networkAnalytics: networkAnalytics(reportDeps), // on the reports connection (a replica) when there is one, as reports are
    setPartnerBranding: setPartnerBranding(deps),
    createApiKey: createApiKey(deps),
    createWebhook: createWebhook(webhookDeps),
    listWebhooks: listWebhooks(webhookDeps),
    getWebhook: getWebhook(webhookDeps),
    updateWebhook: updateWebhook(webhookDeps),
    deleteWebhook: deleteWebhook(webhookDeps),
    rotateWebhookSecret: rotateWebhookSecret(webhookDeps),
    testWebhook: testWebhook(webhookDeps),
    listWebhookDeliveries: listWebhookDeliveries(webhookDeps),
    redeliverWebhook: redeliverWebhook(webhookDeps),
    listApiKeys: listApiKeys(deps),
    revokeApiKey: revokeApiKey(deps),
    rotateApiKey: rotateApiKey(deps),
    paging,
    recordDeliveryReport: recordDeliveryReport(deps),
    providerCallbacks: {
      ...(config.TERMII_SECRET_KEY ? { termiiSecretKey: config.TERMII_SECRET_KEY } : {}),
      ...(config.WHATSAPP_APP_SECRET ? { whatsappAppSecret: config.WHATSAPP_APP_SECRET } : {}),
      ...(config.WHATSAPP_WEBHOOK_VERIFY_TOKEN ? { whatsappVerifyToken: config.WHATSAPP_WEBHOOK_VERIFY_TOKEN } : {}),
    },
    callbackLogger: logger,
  });
  // The batch runs the single endpoints' routes, so an operation answers exactly as its endpoint would.
  const sync = { idempotency: persistence.idempotency, uow, clock, errorTypeBase: config.ERROR_TYPE_BASE };
  const routes = [...singleRoutes, ...syncRoutes({ sync, listConflicts: listConflicts(deps), resolveConflict: resolveConflict(deps), pullChanges: pullChanges(deps), paging }, singleRoutes)];
  const currentActor = resolveActor({ ...deps, ...(persistence.memberCache ? { memberCache: persistence.memberCache } : {}) });
  const partnerOfKey = authenticatePartnerKey(deps);
  const openApi = buildOpenApi(routes, { version: VERSION, errorTypeBase: config.ERROR_TYPE_BASE });
  const { app, router } = createApp({
    routes,
    openApi,
    verifyToken: rememberingVerifier(joseTokenVerifier(key, tokenSettings), { max: 10_000 }),
    resolveActor: async (claims, sessionId) => {
      const r = await currentActor(claims, sessionId);
      if (E.isRight(r)) return { ok: true, actor: r.right };
      return { ok: false, reason: REFUSAL[r.left._tag] };
    },
    authenticatePartner: async (apiKey) => {
      const r = await partnerOfKey(apiKey);
      return E.isRight(r) ? { ok: true, partner: r.right } : { ok: false, reason: r.left };
    },
    rateLimits: createRateLimits(
      { authPerIdentifier: config.RATE_LIMIT_AUTH_PER_IDENTIFIER, authPerIp: config.RATE_LIMIT_AUTH_PER_IP, perUser: config.RATE_LIMIT_USER, perPartnerKey: config.RATE_LIMIT_PARTNER },
      overrides.redis,
    ),
    logger,
    clock,
    errorTypeBase: config.ERROR_TYPE_BASE,
    corsOrigins: config.CORS_ORIGINS,
    isDatabaseUnavailable: (e) => persistence.isUnavailable(e),
    redactFault: (e) => persistence.redact(e),
    trustProxy: config.TRUST_PROXY,
    idempotency: persistence.idempotency,
    uow,
  });
  return { app, router, routes, openApi, signingKey: key, dispatcher, jobs, runScheduledNotifications, runWebhookDeliveries };
};
