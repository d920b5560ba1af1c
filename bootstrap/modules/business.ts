import { businessRoutes } from '../../adapters/http/routes/business.routes.js';
import { createBranch, deleteBranch, getBranch, listBranches, updateBranch } from '../../application/branches/manage-branches.js';
import { getBusiness } from '../../application/business/get-business.js';
import { getPlanUsage } from '../../application/business/plan-usage.js';
import { updateBusiness } from '../../application/business/update-business.js';
import { getBusinessPartner } from '../../application/partners/network.js';
import { inMemoryBusinessModule } from '../../adapters/persistence/in-memory/business.in-memory.js';
import { sqlBusinessModule } from '../../adapters/persistence/sql/business.sql.js';
import { BUSINESS_FAILURES } from '../../adapters/http/failures/business.js';
import { defineModule, repositories } from './module.js';

/** The business's profile, plan usage and branches. */
export const businessModule = defineModule({
  name: 'business',
  folders: ['business', 'branches', 'operator'],
  repositories: [repositories(inMemoryBusinessModule, sqlBusinessModule)],
  failures: [BUSINESS_FAILURES],
  migrations: [],
  useCases: ({ deps, paging }) => ({
    getBusiness: getBusiness(deps),
    getPlanUsage: getPlanUsage(deps),
    updateBusiness: updateBusiness(deps),
    createBranch: createBranch(deps),
    listBranches: listBranches(deps),
    getBranch: getBranch(deps),
    updateBranch: updateBranch(deps),
    deleteBranch: deleteBranch(deps),
    getBusinessPartner: getBusinessPartner(deps), // the business's answer says which partner network it is in
    paging,
  }),
  routes: (uc) => businessRoutes(uc),
});
