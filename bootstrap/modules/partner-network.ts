import { businessPartnerRoutes } from '../../adapters/http/routes/business-partner.routes.js';
import { getBusinessPartner, joinPartnerNetwork, leavePartnerNetwork } from '../../application/partners/network.js';
import { defineModule } from './module.js';

/**
 * A business joining or leaving a partner's network (/businesses/me/partner). Its own module, apart
 * from the partner API's (partners.ts), because its routes come before the /businesses/:id patterns.
 */
export const partnerNetworkModule = defineModule({
  name: 'partner-network',
  folders: ['partners'],
  repositories: [],
  failures: [],
  migrations: [],
  useCases: ({ deps }) => ({
    getBusinessPartner: getBusinessPartner(deps),
    joinPartnerNetwork: joinPartnerNetwork(deps),
    leavePartnerNetwork: leavePartnerNetwork(deps),
  }),
  routes: (uc) => businessPartnerRoutes(uc),
});
