import { staffRoutes } from '../../adapters/http/routes/staff.routes.js';
import { deactivateStaffMember, getStaffMember, inviteStaff, listStaff, updateStaffMember } from '../../application/staff/manage-staff.js';
import { defineModule } from './module.js';

/** A business's staff: invitations, roles, deactivation. */
export const staffModule = defineModule({
  name: 'staff',
  folders: ['staff'],
  repositories: [],
  failures: [],
  migrations: [],
  useCases: ({ deps, paging }) => ({
    inviteStaff: inviteStaff(deps),
    listStaff: listStaff(deps),
    getStaffMember: getStaffMember(deps),
    updateStaffMember: updateStaffMember(deps),
    deactivateStaffMember: deactivateStaffMember(deps),
    paging,
  }),
  routes: (uc) => staffRoutes(uc),
});
