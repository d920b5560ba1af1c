import type { getBusiness } from '../../../application/business/get-business.js';
import type { getBusinessPartner } from '../../../application/partners/network.js';
import { businessPartnerJson, businessPartnerShape } from './partner.views.js';
import type { getPlanUsage, PlanUsage } from '../../../application/business/plan-usage.js';
import type { Business } from '../../../domain/business.js';
import type { updateBusiness } from '../../../application/business/update-business.js';
import type { createBranch, deleteBranch, getBranch, listBranches, updateBranch } from '../../../application/branches/manage-branches.js';
import { BRANCH_SORTS } from '../../../application/business/ports.js';
import { booleanInput, dateTime, doc, email, httpsUrl, int, nuban, object, orNull, paymentTermsDays, phone, shape, text, tinInput, vatRatePercent } from '../codecs.js';
import { dateTimeJson } from '../json-values.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { successOf } from '../failures.js';
import { created, ok, OWNER_AND_STAFF, OWNER_ONLY, route } from '../route.js';
import { branchJson, branchShape, businessJson, businessShape } from './views.js';
import { jsonSchemaOf } from '../codecs.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface BusinessUseCases {
  readonly getBusiness: ReturnType<typeof getBusiness>;
  readonly getPlanUsage: ReturnType<typeof getPlanUsage>;
  readonly getBusinessPartner: ReturnType<typeof getBusinessPartner>;
  readonly updateBusiness: ReturnType<typeof updateBusiness>;
  readonly createBranch: ReturnType<typeof createBranch>;
  readonly listBranches: ReturnType<typeof listBranches>;
  readonly getBranch: ReturnType<typeof getBranch>;
  readonly updateBranch: ReturnType<typeof updateBranch>;
  readonly deleteBranch: ReturnType<typeof deleteBranch>;
  readonly paging: Paging;
}

const TAG = 'Business';

const branchFields = {
  name: text(1, 120),
};
const branchOptional = { address: orNull(text(1, 300)), phone: orNull(phone) };

const nullableInt = doc('integer or null', { type: ['integer', 'null'], minimum: 0 });
const planUsageShape = shape(
  'PlanUsage',
  {
    plan_limits: doc('PlanLimits', {
      type: 'object',
      required: ['monthly_sales'],
      properties: { monthly_sales: { type: ['integer', 'null'], minimum: 0, description: 'sales the plan records in a Lagos month; null = no cap' } },
    }),
    sales_this_month: int,
    sales_limit: nullableInt,
    sales_remaining: nullableInt,
    period_start: dateTime,
    period_end: dateTime,
  },
  {
    sales_this_month: 'sales recorded this Lagos month (voided ones too; on a capped plan, the count the cap is checked against)',
    sales_limit: 'the monthly cap, null when the plan has none',
    sales_remaining: 'sales left before POST /sales answers 402 PLAN_LIMIT_EXCEEDED; null when the plan has no cap',
    period_start: 'when this Lagos month began (00:00 Africa/Lagos on the 1st)',
    period_end: 'when the next Lagos month begins (exclusive end of this period)',
  },
);
/** The Business shape with `plan_usage`. */
const businessWithUsage = doc('BusinessWithPlanUsage', {
  ...businessShape.schema,
  properties: {
    ...(businessShape.schema.properties as object),
    plan_usage: planUsageShape.schema,
    partner: { oneOf: [businessPartnerShape.schema, { type: 'null' }], description: "the partner whose network the business is in (it sees the business's figures), or null" },
  },
  required: [...(businessShape.schema.required as string[]), 'plan_usage', 'partner'],
});

const planUsageJson = (u: PlanUsage) => ({
  plan_limits: { monthly_sales: u.sales.limit },
  sales_this_month: u.sales.count,
  sales_limit: u.sales.limit,
  sales_remaining: u.sales.remaining,
  period_start: dateTimeJson(u.periodStart),
  period_end: dateTimeJson(u.periodEnd),
});

const PLAN_USAGE_DESCRIPTION =
  ' `plan_usage` carries the plan\'s limits and this Lagos month\'s use of them (e.g. on FREE, 45 of 50 sales: ' +
  'sales_remaining 5), so an app can warn before POST /sales answers 402 PLAN_LIMIT_EXCEEDED.';

export const businessRoutes = (uc: BusinessUseCases) => {
  const withUsage = async (actor: Parameters<BusinessUseCases['getPlanUsage']>[0], b: Business) => ({
    ...businessJson(b),
    plan_usage: planUsageJson(await uc.getPlanUsage(actor, b.plan)),
    partner: await uc.getBusinessPartner(actor).then((p) => (p ? businessPartnerJson(p) : null)),
  });
  return [
  route({
    method: 'get',
    path: '/businesses/me',
    operationId: 'getMyBusiness',
    tag: TAG,
    summary: "The caller's business",
    description: 'Any member (owner or staff) may call it.' + PLAN_USAGE_DESCRIPTION + " `partner`: the partner whose network the business is in, with its branding, or null.",
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The business with its plan usage', data: businessWithUsage },
    failures: failuresOf<FailureOf<typeof uc.getBusiness>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor }) => {
      const r = successOf(await uc.getBusiness(actor), 'business');
      return ok('Business', await withUsage(actor, r));
    },
  }),
  route({
    method: 'put',
    path: '/businesses/me',
    operationId: 'updateMyBusiness',
    tag: TAG,
    summary: "Update the business profile (owner)",
    description:
      'Fields present are updated; null clears an optional field. plan, currency and timezone are read-only (unknown fields, 400). ' +
      'VAT (docs/adr/0054): vat_registered true needs a tin (sent now or held, else 422 TIN_REQUIRED); vat_rate is a percentage ' +
      '(default 7.5, the Nigerian rate); prices_include_vat (default true) says whether shelf prices hold the VAT or it is added. ' +
      'New settings apply to sales made from then on; each sale keeps the rate and mode it was made with. Invoices (docs/adr/0072): payment_terms_days ' +
      '(0-365, default 30) sets new invoices\' due dates; bank_name, account_number (a 10-digit NUBAN), account_name and invoice_footer are printed on invoices.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    bodyExample: { name: 'Ada Stores Ikeja', address: '12 Allen Avenue, Ikeja, Lagos', category: 'Retail', vat_registered: true, tin: '12345678-0001', vat_rate: 7.5, prices_include_vat: true },
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
        vat_registered: booleanInput,
        tin: orNull(tinInput),
        vat_rate: vatRatePercent,
        prices_include_vat: booleanInput,
        payment_terms_days: paymentTermsDays,
        bank_name: orNull(text(1, 100)),
        account_number: orNull(nuban),
        account_name: orNull(text(1, 100)),
        invoice_footer: orNull(text(1, 500)),
      },
    ),
    success: { status: 200, description: 'The updated business', data: businessShape },
    failures: failuresOf<FailureOf<typeof uc.updateBusiness>>({ NotFound: true, TinRequired: true }),
    errors: [],
    handler: async ({ actor, body }) => {
      const { logo_url, vat_registered, vat_rate, prices_include_vat, payment_terms_days, bank_name, account_number, account_name, invoice_footer, ...rest } = body;
      const r = successOf(
        await uc.updateBusiness(actor, {
          ...rest,
          ...(logo_url !== undefined ? { logoUrl: logo_url } : {}),
          ...(vat_registered !== undefined ? { vatRegistered: vat_registered } : {}),
          ...(vat_rate !== undefined ? { vatRate: vat_rate } : {}),
          ...(prices_include_vat !== undefined ? { pricesIncludeVat: prices_include_vat } : {}),
          ...(payment_terms_days !== undefined ? { paymentTermsDays: payment_terms_days } : {}),
          ...(bank_name !== undefined ? { bankName: bank_name } : {}),
          ...(account_number !== undefined ? { accountNumber: account_number } : {}),
          ...(account_name !== undefined ? { accountName: account_name } : {}),
          ...(invoice_footer !== undefined ? { invoiceFooter: invoice_footer } : {}),
        }),
        'business',
      );
      return ok('Business updated', businessJson(r));
    },
  }),
  route({
    method: 'get',
    path: '/businesses/:id',
    operationId: 'getBusiness',
    tag: TAG,
    summary: 'A business by id (only the caller\'s own exists)',
    description: 'Any member may call it; another business\'s id is 404. The same answer as GET /businesses/me.' + PLAN_USAGE_DESCRIPTION,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The business with its plan usage', data: businessWithUsage },
    failures: failuresOf<FailureOf<typeof uc.getBusiness>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      const r = successOf(await uc.getBusiness(actor, params.id), 'business');
      return ok('Business', await withUsage(actor, r));
    },
  }),
  route({
    method: 'post',
    path: '/businesses/branches',
    operationId: 'createBranch',
    tag: TAG,
    summary: 'Open a branch (owner)',
    description:
      "Adds a branch to the caller's business. The default branch made at registration stays the default.",
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { name: 'Yaba branch', address: '3 Herbert Macaulay Way, Yaba, Lagos', phone: '+2348031112222' },
    body: object('CreateBranchRequest', branchFields, branchOptional),
    success: { status: 201, description: 'The new branch', data: branchShape },
    errors: [],
    handler: async ({ actor, body }) => {
      const branch = await uc.createBranch(actor, { name: body.name, address: body.address ?? null, phone: body.phone ?? null });
      return created('Branch created', branchJson(branch));
    },
  }),
  route({
    method: 'get',
    path: '/businesses/me/branches',
    operationId: 'listMyBranches',
    tag: TAG,
    summary: 'Branches of the caller\'s business (owner)',
    description:
      'The same list as GET /businesses/{id}/branches with the caller\'s own business id, without having to look the id up first. ' +
      'Owner only (403 INSUFFICIENT_ROLE for staff). Paged (keyset). search: name, address, phone. Archived branches are not listed.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: listQuery('MyBranchListQuery', BRANCH_SORTS, {}),
    success: { status: 200, description: 'A page of branches', data: doc('BranchPage', pageSchema(jsonSchemaOf(branchShape))) },
    failures: failuresOf<FailureOf<typeof uc.listBranches>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listBranches', query, 'created_at');
      const r = successOf(await uc.listBranches(actor, actor.businessId, req), 'business');
      return ok('Branches', uc.paging.render('listBranches', query, req, r, branchJson));
    },
  }),
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
    failures: failuresOf<FailureOf<typeof uc.listBranches>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params, query }) => {
      const req = uc.paging.request('listBranches', query, 'created_at');
      const r = successOf(await uc.listBranches(actor, params.id, req), 'business');
      return ok('Branches', uc.paging.render('listBranches', query, req, r, branchJson));
    },
  }),
  route({
    method: 'get',
    path: '/businesses/:id/branches/:branch_id',
    operationId: 'getBranch',
    tag: TAG,
    summary: 'A branch (owner)',
    description:
      "One branch of the business named in the path, which must be the caller's own (another business's id is 404, as an unknown one is).",
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The branch', data: branchShape },
    failures: failuresOf<FailureOf<typeof uc.getBranch>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      const r = successOf(await uc.getBranch(actor, params.id, params.branch_id), 'branch');
      return ok('Branch', branchJson(r));
    },
  }),
  route({
    method: 'put',
    path: '/businesses/:id/branches/:branch_id',
    operationId: 'updateBranch',
    tag: TAG,
    summary: 'Update a branch (owner)',
    description:
      "Changes a branch's name, address or phone; fields left out stay as they are and `null` clears an optional one. The business in the path must be the caller's own.",
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    bodyExample: { name: 'Yaba (main road)', phone: null },
    body: object('UpdateBranchRequest', {}, { ...branchFields, ...branchOptional }),
    success: { status: 200, description: 'The updated branch', data: branchShape },
    failures: failuresOf<FailureOf<typeof uc.updateBranch>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params, body }) => {
      const r = successOf(await uc.updateBranch(actor, params.id, params.branch_id, body), 'branch');
      return ok('Branch updated', branchJson(r));
    },
  }),
  route({
    method: 'delete',
    path: '/businesses/:id/branches/:branch_id',
    operationId: 'deleteBranch',
    tag: TAG,
    summary: 'Delete a branch (owner)',
    description:
      'The default branch cannot be deleted (409). A branch that holds stock is 409 BRANCH_HAS_STOCK until its stock is ' +
      'transferred out (POST /products/stock-transfers). A branch with history (staff assigned, sales, expenses, stock ledger rows) ' +
      'is archived instead of erased, and its staff move to the default branch; `archived` says which happened.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: {
      status: 200,
      description: 'The branch as it was deleted or archived',
      data: shape('DeletedBranch', { branch: branchShape, archived: doc('boolean', { type: 'boolean' }) }),
    },
    failures: failuresOf<FailureOf<typeof uc.deleteBranch>>({ NotFound: true, DefaultBranchProtected: true, BranchHasStock: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      const r = successOf(await uc.deleteBranch(actor, params.id, params.branch_id), 'branch');
      return ok(r.archived ? 'Branch archived (it has history)' : 'Branch deleted', {
        branch: branchJson(r.branch),
        archived: r.archived,
      });
    },
  }),
];
};
