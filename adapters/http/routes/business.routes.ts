import * as E from 'fp-ts/lib/Either.js';
import type { getBusiness, planUsage } from '../../../application/business/get-business.js';
import type { updateBusiness } from '../../../application/business/update-business.js';
import type { createBranch, deleteBranch, getBranch, listBranches, updateBranch } from '../../../application/branches/manage-branches.js';
import { BRANCH_SORTS } from '../../../application/ports/repositories.js';
import { dateTime, doc, email, httpsUrl, jsonSchemaOf, object, orNull, phone, shape, text } from '../codecs.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { problem } from '../problem.js';
import { created, ok, OWNER_AND_STAFF, OWNER_ONLY, route, type HandlerInput } from '../route.js';
import { branchJson, branchShape, businessJson, businessShape } from './views.js';

export interface BusinessUseCases {
  readonly getBusiness: ReturnType<typeof getBusiness>;
  readonly planUsage: ReturnType<typeof planUsage>;
  readonly updateBusiness: ReturnType<typeof updateBusiness>;
  readonly createBranch: ReturnType<typeof createBranch>;
  readonly listBranches: ReturnType<typeof listBranches>;
  readonly getBranch: ReturnType<typeof getBranch>;
  readonly updateBranch: ReturnType<typeof updateBranch>;
  readonly deleteBranch: ReturnType<typeof deleteBranch>;
  readonly paging: Paging;
}

const notFound = (what: string) => problem('RESOURCE_NOT_FOUND', `No such ${what}.`);
const TAG = 'Business';

const branchFields = {
  name: text(1, 120),
};
const branchOptional = { address: orNull(text(1, 300)), phone: orNull(phone) };

const listBranchesRoute = (uc: BusinessUseCases) =>
  route({
  method: 'get',
  path: '/businesses/:id/branches',
  operationId: 'listBranches',
  tag: TAG,
  summary: 'Branches of the business (owner)',
  description: 'Paged (keyset). search: name, address, phone. Archived branches are not listed.',
  access: { roles: OWNER_ONLY },
  rateLimit: 'user',
  query: listQuery('BranchListQuery', BRANCH_SORTS, {}),
  success: { status: 200, description: 'A page of branches', data: doc('BranchPage', pageSchema(jsonSchemaOf(branchShape))) },
  errors: ['RESOURCE_NOT_FOUND'],
  handler: async ({ actor, params, query }) => {
    const req = uc.paging.request('listBranches', query, 'created_at');
    const r = await uc.listBranches(actor!, params.id!, req);
    if (E.isLeft(r)) throw notFound('business');
    return ok('Branches', uc.paging.render('listBranches', query, req, r.right, branchJson));
  },
});

type BranchListQueryValue = Parameters<ReturnType<typeof listBranchesRoute>['handler']>[0]['query'];

const count = (description: string, nullable = false) =>
  doc('count', { type: nullable ? ['integer', 'null'] : 'integer', minimum: 0, description });
const businessWithUsageShape = doc('BusinessWithPlanUsage', {
  allOf: [
    businessShape.schema,
    shape('BusinessPlanUsage', {
      plan_usage: shape('PlanUsage', {
        monthly_sales_limit: count('sales a Lagos month the plan allows; null = no cap', true),
        sales_this_month: count('sales recorded this Lagos month, voided ones included'),
        sales_remaining: count('sales left this month; null = no cap', true),
        period_start: dateTime,
        period_end: dateTime,
      }),
    }).schema,
  ],
});

export const businessRoutes = (uc: BusinessUseCases) => [
  route({
    method: 'get',
    path: '/businesses/me',
    operationId: 'getMyBusiness',
    tag: TAG,
    summary: "The caller's business",
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    description:
      'Owner and staff. The business with `plan_usage`: the plan\'s monthly sales cap (null when none) and this Lagos month\'s ' +
      'sales so far, so an app can warn at 45 of 50 before POST /sales answers 402 PLAN_LIMIT_EXCEEDED.',
    success: { status: 200, description: 'The business and its plan usage', data: businessWithUsageShape },
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor }) => {
      const r = await uc.getBusiness(actor!);
      if (E.isLeft(r)) throw notFound('business');
      const usage = await uc.planUsage(r.right);
      return ok('Business', {
        ...businessJson(r.right),
        plan_usage: {
          monthly_sales_limit: usage.monthlySalesLimit,
          sales_this_month: usage.salesThisMonth,
          sales_remaining: usage.salesRemaining,
          period_start: usage.periodStart.toISOString(),
          period_end: usage.periodEnd.toISOString(),
        },
      });
    },
  }),
  route({
    method: 'put',
    path: '/businesses/me',
    operationId: 'updateMyBusiness',
    tag: TAG,
    summary: "Update the business profile (owner)",
    description: 'Fields present are updated; null clears an optional field. plan, currency and timezone are read-only (unknown fields, 400).',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    body: object(
      'UpdateBusinessRequest',
      {},
      {
        name: text(1, 120),
        phone: orNull(phone),
        email: orNull(email),
        address: orNull(text(1, 300)),
        category: orNull(text(1, 60)),
        logo_url: orNull(httpsUrl),
      },
    ),
    success: { status: 200, description: 'The updated business', data: businessShape },
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, body }) => {
      const { logo_url, ...rest } = body;
      const r = await uc.updateBusiness(actor!, { ...rest, ...(logo_url !== undefined ? { logoUrl: logo_url } : {}) });
      if (E.isLeft(r)) throw notFound('business');
      return ok('Business updated', businessJson(r.right));
    },
  }),
  route({
    method: 'get',
    path: '/businesses/:id',
    operationId: 'getBusiness',
    tag: TAG,
    summary: 'A business by id (only the caller\'s own exists)',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The business', data: businessShape },
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, params }) => {
      const r = await uc.getBusiness(actor!, params.id!);
      if (E.isLeft(r)) throw notFound('business');
      return ok('Business', businessJson(r.right));
    },
  }),
  route({
    method: 'post',
    path: '/businesses/branches',
    operationId: 'createBranch',
    tag: TAG,
    summary: 'Open a branch (owner)',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    body: object('CreateBranchRequest', branchFields, branchOptional),
    success: { status: 201, description: 'The new branch', data: branchShape },
    errors: [],
    handler: async ({ actor, body }) => {
      const branch = await uc.createBranch(actor!, { name: body.name, address: body.address ?? null, phone: body.phone ?? null });
      return created('Branch created', branchJson(branch));
    },
  }),
  // the caller's own branches without their business id, beside GET /businesses/me (the spec's own path stays)
  {
    ...listBranchesRoute(uc),
    path: '/businesses/me/branches',
    operationId: 'listMyBranches',
    summary: 'Branches of the business (owner; same as GET /businesses/{id}/branches)',
    errors: [],
    handler: (input: HandlerInput<undefined, BranchListQueryValue>) => listBranchesRoute(uc).handler({ ...input, params: { ...input.params, id: input.actor!.businessId } }),
  },
  listBranchesRoute(uc),
  route({
    method: 'get',
    path: '/businesses/:id/branches/:branch_id',
    operationId: 'getBranch',
    tag: TAG,
    summary: 'A branch (owner)',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The branch', data: branchShape },
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, params }) => {
      const r = await uc.getBranch(actor!, params.id!, params.branch_id!);
      if (E.isLeft(r)) throw notFound('branch');
      return ok('Branch', branchJson(r.right));
    },
  }),
  route({
    method: 'put',
    path: '/businesses/:id/branches/:branch_id',
    operationId: 'updateBranch',
    tag: TAG,
    summary: 'Update a branch (owner)',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    body: object('UpdateBranchRequest', {}, { ...branchFields, ...branchOptional }),
    success: { status: 200, description: 'The updated branch', data: branchShape },
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, params, body }) => {
      const r = await uc.updateBranch(actor!, params.id!, params.branch_id!, body);
      if (E.isLeft(r)) throw notFound('branch');
      return ok('Branch updated', branchJson(r.right));
    },
  }),
  route({
    method: 'delete',
    path: '/businesses/:id/branches/:branch_id',
    operationId: 'deleteBranch',
    tag: TAG,
    summary: 'Delete a branch (owner)',
    description:
      'The default branch cannot be deleted (409). A branch with history (staff assigned; later, sales) is archived ' +
      'instead of erased, and its staff move to the default branch; `archived` says which happened.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: {
      status: 200,
      description: 'The branch as it was deleted or archived',
      data: shape('DeletedBranch', { branch: branchShape, archived: doc('boolean', { type: 'boolean' }) }),
    },
    errors: ['RESOURCE_NOT_FOUND', 'DEFAULT_BRANCH_PROTECTED'],
    handler: async ({ actor, params }) => {
      const r = await uc.deleteBranch(actor!, params.id!, params.branch_id!);
      if (E.isLeft(r)) {
        throw r.left._tag === 'NotFound'
          ? notFound('branch')
          : problem('DEFAULT_BRANCH_PROTECTED', 'The default branch cannot be deleted.');
      }
      return ok(r.right.archived ? 'Branch archived (it has history)' : 'Branch deleted', {
        branch: branchJson(r.right.branch),
        archived: r.right.archived,
      });
    },
  }),
];
