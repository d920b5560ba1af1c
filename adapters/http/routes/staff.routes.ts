import type { deactivateStaffMember, getStaffMember, inviteStaff, listStaff, updateStaffMember } from '../../../application/staff/manage-staff.js';
import { STAFF_SORTS } from '../../../application/business/ports.js';
import { doc, enumOf, jsonSchemaOf, object, text, uuidInput } from '../codecs.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { successOf } from '../failures.js';
import { created, ok, OWNER_ONLY, route } from '../route.js';
import { identifierFields, identifierOf } from './identifier.js';
import { staffJson, staffShape } from './views.js';
import { ROLES } from '../../../domain/roles.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface StaffUseCases {
  readonly inviteStaff: ReturnType<typeof inviteStaff>;
  readonly listStaff: ReturnType<typeof listStaff>;
  readonly getStaffMember: ReturnType<typeof getStaffMember>;
  readonly updateStaffMember: ReturnType<typeof updateStaffMember>;
  readonly deactivateStaffMember: ReturnType<typeof deactivateStaffMember>;
  readonly paging: Paging;
}

const TAG = 'Staff';
const role = enumOf('role', ROLES);

export const staffRoutes = (uc: StaffUseCases) => [
  route({
    method: 'post',
    path: '/staff/invite',
    operationId: 'inviteStaff',
    tag: TAG,
    summary: 'Invite a staff member (owner)',
    description:
      'Creates the member INVITED and sends an invitation. The invitee signs in with /auth/login + /auth/verify-otp and ' +
      'becomes ACTIVE; an invitation not accepted within 7 days lapses (sign-in is then 401 INVITATION_EXPIRED). ' +
      'Someone active in a business, or holding an open invitation, is 409 ALREADY_A_MEMBER; a deactivated or lapsed one may be invited. ' +
      'Give exactly one of phone or email; role defaults to STAFF, branch to the default branch. ' +
      'A business sends at most a number of invitations a Lagos day by plan (FREE 20, STARTER 50, BUSINESS 100, PRO 200; then 402 PLAN_LIMIT_EXCEEDED).',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { first_name: 'Chidi', last_name: 'Eze', phone: '+2348039876543', role: 'STAFF' },
    body: object('InviteRequest', { first_name: text(1, 100), last_name: text(1, 100) }, { ...identifierFields, role, branch_id: uuidInput }),
    success: { status: 201, description: 'The invited member', data: staffShape },
    failures: failuresOf<FailureOf<typeof uc.inviteStaff>>({ UnknownBranch: true, DailyLimitExceeded: true, AlreadyMember: true }),
    errors: [],
    handler: async ({ actor, body }) => {
      const invited = successOf(await uc.inviteStaff(actor, {
        identifier: identifierOf(body),
        firstName: body.first_name,
        lastName: body.last_name,
        role: body.role ?? 'STAFF',
        ...(body.branch_id ? { branchId: body.branch_id } : {}),
      }), 'staff member');
      return created('Invitation sent', staffJson(invited));
    },
  }),
  route({
    method: 'get',
    path: '/businesses/staff',
    operationId: 'listStaff',
    tag: TAG,
    summary: 'Staff of the business (owner)',
    description: 'Owner only (403 INSUFFICIENT_ROLE for staff); the same list as GET /staff. Paged (keyset). search: name, phone, email. Filter by status.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: listQuery('StaffListQuery', STAFF_SORTS, { status: enumOf('status', ['INVITED', 'ACTIVE', 'DEACTIVATED'] as const) }),
    success: { status: 200, description: 'A page of staff members', data: doc('StaffPage', pageSchema(jsonSchemaOf(staffShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listStaff', query, 'created_at');
      const page = await uc.listStaff(actor, req, query.status ? { status: query.status } : {});
      return ok('Staff', uc.paging.render('listStaff', query, req, page, staffJson));
    },
  }),
  route({
    method: 'get',
    path: '/staff',
    operationId: 'listStaffMembers',
    tag: TAG,
    summary: 'Staff of the business (owner)',
    description:
      'The same list as GET /businesses/staff, at the path beside /staff/{id} and /staff/invite. Owner only (403 INSUFFICIENT_ROLE ' +
      'for staff). Paged (keyset). search: name, phone, email. Filter by status.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: listQuery('StaffMemberListQuery', STAFF_SORTS, { status: enumOf('status', ['INVITED', 'ACTIVE', 'DEACTIVATED'] as const) }),
    success: { status: 200, description: 'A page of staff members', data: doc('StaffPage', pageSchema(jsonSchemaOf(staffShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listStaff', query, 'created_at');
      const page = await uc.listStaff(actor, req, query.status ? { status: query.status } : {});
      return ok('Staff', uc.paging.render('listStaff', query, req, page, staffJson));
    },
  }),
  route({
    method: 'get',
    path: '/staff/:id',
    operationId: 'getStaffMember',
    tag: TAG,
    summary: 'A staff member (owner)',
    description:
      "One membership of the caller's business, in any status (INVITED, ACTIVE, DEACTIVATED). Another business's member is 404.",
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The member', data: staffShape },
    failures: failuresOf<FailureOf<typeof uc.getStaffMember>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      return ok('Staff member', staffJson(successOf(await uc.getStaffMember(actor, params.id), 'staff member')));
    },
  }),
  route({
    method: 'put',
    path: '/staff/:id',
    operationId: 'updateStaffMember',
    tag: TAG,
    summary: "Change a member's role or branch (owner)",
    description:
      "Changes a member's role or branch; it applies from the member's next request. Demoting the last active owner is 409 LAST_OWNER; a branch of another business or an archived one is 422 UNKNOWN_BRANCH.",
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    bodyExample: { role: 'BUSINESS_OWNER' },
    body: object('UpdateStaffRequest', {}, { role, branch_id: uuidInput }),
    success: { status: 200, description: 'The member', data: staffShape },
    failures: failuresOf<FailureOf<typeof uc.updateStaffMember>>({ NotFound: true, UnknownBranch: true, LastOwner: true }),
    errors: [],
    handler: async ({ actor, params, body }) => {
      const changes = { ...(body.role ? { role: body.role } : {}), ...(body.branch_id ? { branchId: body.branch_id } : {}) };
      return ok('Staff member updated', staffJson(successOf(await uc.updateStaffMember(actor, params.id, changes), 'staff member')));
    },
  }),
  route({
    method: 'delete',
    path: '/staff/:id',
    operationId: 'deactivateStaffMember',
    tag: TAG,
    summary: 'Deactivate a staff member (owner)',
    description: 'The member is refused from their next request (401 ACCOUNT_DEACTIVATED) and their refresh tokens are revoked.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The deactivated member', data: staffShape },
    failures: failuresOf<FailureOf<typeof uc.deactivateStaffMember>>({ NotFound: true, LastOwner: true, CannotDeactivateSelf: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      return ok('Staff member deactivated', staffJson(successOf(await uc.deactivateStaffMember(actor, params.id), 'staff member')));
    },
  }),
];
