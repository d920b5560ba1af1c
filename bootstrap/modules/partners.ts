import { partnerInsightRoutes } from '../../adapters/http/routes/partner-insights.routes.js';
import { partnerKeyRoutes } from '../../adapters/http/routes/partner-keys.routes.js';
import { partnerWebhookRoutes } from '../../adapters/http/routes/partner-webhooks.routes.js';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '../../application/partners/api-keys.js';
import { getNetworkMerchant, listNetworkMerchants, networkAnalytics, setPartnerBranding } from '../../application/partners/insights.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhookDeliveries, listWebhooks, redeliverWebhook, rotateWebhookSecret, testWebhook, updateWebhook } from '../../application/partners/manage-webhooks.js';
import { inMemoryPartnersModule } from '../../adapters/persistence/in-memory/partners.in-memory.js';
import { sqlPartnersModule } from '../../adapters/persistence/sql/partners.sql.js';
import { inMemoryWebhooksModule } from '../../adapters/persistence/in-memory/webhooks.in-memory.js';
import { sqlWebhooksModule } from '../../adapters/persistence/sql/webhooks.sql.js';
import { PARTNER_FAILURES } from '../../adapters/http/failures/partners.js';
import { defineModule, repositories } from './module.js';

/** The partner API: keys, network insights and webhooks. */
export const partnersModule = defineModule({
  name: 'partners',
  folders: ['partners'],
  repositories: [repositories(inMemoryPartnersModule, sqlPartnersModule), repositories(inMemoryWebhooksModule, sqlWebhooksModule)],
  failures: [PARTNER_FAILURES],
  migrations: [
    { name: 'Migration20261127500000_partners', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261127500000_partners.js')).Migration20261127500000_partners },
    { name: 'Migration20261127510000_partner_webhooks', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261127510000_partner_webhooks.js')).Migration20261127510000_partner_webhooks },
    { name: 'Migration20261127900000_partner_consent_key', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261127900000_partner_consent_key.js')).Migration20261127900000_partner_consent_key },
    { name: 'Migration20261203320000_webhook_delivery_notices', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261203320000_webhook_delivery_notices.js')).Migration20261203320000_webhook_delivery_notices },
  ],
  useCases: ({ deps, reportDeps, webhookDeps, paging, clock }) => ({
    createApiKey: createApiKey(deps),
    listApiKeys: listApiKeys(deps),
    revokeApiKey: revokeApiKey(deps),
    rotateApiKey: rotateApiKey(deps),
    listNetworkMerchants: listNetworkMerchants(deps),
    getNetworkMerchant: getNetworkMerchant(deps),
    networkAnalytics: networkAnalytics(reportDeps), // on the reports connection (a replica) when there is one, as reports are
    setPartnerBranding: setPartnerBranding(deps),
    createWebhook: createWebhook(webhookDeps),
    listWebhooks: listWebhooks(webhookDeps),
    getWebhook: getWebhook(webhookDeps),
    updateWebhook: updateWebhook(webhookDeps),
    deleteWebhook: deleteWebhook(webhookDeps),
    rotateWebhookSecret: rotateWebhookSecret(webhookDeps),
    testWebhook: testWebhook(webhookDeps),
    listWebhookDeliveries: listWebhookDeliveries(webhookDeps),
    redeliverWebhook: redeliverWebhook(webhookDeps),
    paging,
    clock,
  }),
  routes: (uc) => [...partnerKeyRoutes(uc), ...partnerInsightRoutes(uc), ...partnerWebhookRoutes(uc)],
});
