import { providerCallbackRoutes } from '../../adapters/http/routes/provider-callbacks.routes.js';
import { recordDeliveryReport } from '../../application/notifications/deliver-notifications.js';
import { PROVIDER_CALLBACK_FAILURES } from '../../adapters/http/failures/provider-callbacks.js';
import { defineModule } from './module.js';

/** Termii's and Meta's delivery reports on our notifications (docs/adr/0030). */
export const providerCallbacksModule = defineModule({
  name: 'provider-callbacks',
  folders: ['notifications'],
  repositories: [],
  failures: [PROVIDER_CALLBACK_FAILURES],
  migrations: [],
  useCases: ({ deps, config, logger }) => ({
    recordDeliveryReport: recordDeliveryReport(deps),
    providerCallbacks: {
      ...(config.TERMII_SECRET_KEY ? { termiiSecretKey: config.TERMII_SECRET_KEY } : {}),
      ...(config.WHATSAPP_APP_SECRET ? { whatsappAppSecret: config.WHATSAPP_APP_SECRET } : {}),
      ...(config.WHATSAPP_WEBHOOK_VERIFY_TOKEN ? { whatsappVerifyToken: config.WHATSAPP_WEBHOOK_VERIFY_TOKEN } : {}),
    },
    callbackLogger: logger,
  }),
  routes: (uc) => providerCallbackRoutes(uc),
});
