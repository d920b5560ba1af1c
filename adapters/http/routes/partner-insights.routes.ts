import type { getNetworkMerchant, listNetworkMerchants, networkAnalytics, setPartnerBranding } from '../../../application/partners/insights.js';
import { NETWORK_PERIODS } from '../../../application/partners/insights.js';
import { MERCHANT_ACTIVITY, PARTNER_MERCHANT_SORTS } from '../../../application/partners/ports.js';
import type { Clock } from '../../../application/ports/clock.js';
import { PLANS } from '../../../domain/plan.js';
import { doc, email, enumOf, jsonSchemaOf, object, orNull, phone, text } from '../codecs.js';
import { successOf } from '../failures.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { ok, route } from '../route.js';
import { analyticsJson, analyticsShape, hexColor, httpsOnlyUrl, merchantDetailJson, merchantDetailShape, merchantJson, merchantShape } from './partner-insights.views.js';
import { brandingJson, brandingShape } from './partner.views.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface PartnerInsightUseCases {
  readonly listNetworkMerchants: ReturnType<typeof listNetworkMerchants>;
  readonly getNetworkMerchant: ReturnType<typeof getNetworkMerchant>;
  readonly networkAnalytics: ReturnType<typeof networkAnalytics>;
  readonly setPartnerBranding: ReturnType<typeof setPartnerBranding>;
  readonly paging: Paging;
  readonly clock: Clock;
}

const TAG = 'Partner';

/** What a partner sees of its network, and its branding (docs/adr/0033). */
export const partnerInsightRoutes = (uc: PartnerInsightUseCases) => [
  route({
    method: 'get',
    path: '/partner/merchants',
    operationId: 'listPartnerMerchants',
    tag: TAG,
    summary: "The partner's merchants",
    description:
      "The businesses in the partner's network now, paged (keyset), by joined_at newest first unless sort_by says otherwise (joined_at, name, gmv_30d). " +
      'search: business name and owner phone (E.164, e.g. 803123). start_date/end_date bound joined_at. plan; status ACTIVE (a completed sale in the last 30 days) or DORMANT. ' +
      'Figures only: never individual sales, customers or products.',
    access: { partnerScope: 'merchants:read' },
    rateLimit: 'partner',
    query: listQuery('PartnerMerchantListQuery', PARTNER_MERCHANT_SORTS, { plan: enumOf('plan', PLANS), status: enumOf('status', MERCHANT_ACTIVITY) }, 'joined_at'),
    success: { status: 200, description: 'A page of merchants', data: doc('PartnerMerchantPage', pageSchema(jsonSchemaOf(merchantShape))) },
    errors: [],
    handler: async ({ partner, query }) => {
      const req = uc.paging.request('listPartnerMerchants', query, 'joined_at');
      const page = await uc.listNetworkMerchants(partner, req, { ...(query.plan ? { plan: query.plan } : {}), ...(query.status ? { activity: query.status } : {}) });
      return ok('Merchants', uc.paging.render('listPartnerMerchants', query, req, page, merchantJson));
    },
  }),
  route({
    method: 'get',
    path: '/partner/merchants/:id',
    operationId: 'getPartnerMerchant',
    tag: TAG,
    summary: 'A merchant of the network',
    description:
      'The list figures plus the last 12 Lagos months of GMV and sales count, credit outstanding and staff count. A business outside the network (another partner\'s, ' +
      'one that left, any other) is 404 exactly like an unknown id.',
    access: { partnerScope: 'merchants:read' },
    rateLimit: 'partner',
    success: { status: 200, description: 'The merchant', data: merchantDetailShape },
    failures: failuresOf<FailureOf<typeof uc.getNetworkMerchant>>({ NotFound: true }),
    errors: [],
    handler: async ({ partner, params }) => ok('Merchant', merchantDetailJson(successOf(await uc.getNetworkMerchant(partner, params.id), 'merchant'))),
  }),
  route({
    method: 'get',
    path: '/partner/analytics',
    operationId: 'getPartnerAnalytics',
    tag: TAG,
    summary: 'Network analytics',
    description:
      'Over the last 7, 30 or 90 Lagos days (today included; default 30d) against the as many days just before: merchants total and active, active rate, GMV, ' +
      'transactions and average ticket, each {value, previous, change_pct}; GMV per day; and the merchants at risk (no completed sale for 14 days or more). Computed by the database. ' +
      "merchants_total: merchants in the network now that had joined by the period's end; merchants_active: of those, with a completed sale in the period; " +
      'active_rate_pct: active of total in per cent (0 without merchants), its change_pct relative; gmv and transactions: completed sales of those merchants in the period ' +
      '(including sales from before a merchant joined); gmv is net of the returns those merchants made in the period (docs/adr/0060); ' +
      'average_ticket: gmv / transactions, half up to the kobo, 0 without sales.',
    access: { partnerScope: 'analytics:read' },
    rateLimit: 'partner',
    query: object('PartnerAnalyticsQuery', {}, { period: enumOf('period', NETWORK_PERIODS, 'default 30d') }),
    success: { status: 200, description: 'The analytics', data: analyticsShape },
    errors: [],
    handler: async ({ partner, query }) => ok('Network analytics', analyticsJson(await uc.networkAnalytics(partner, query.period ?? '30d'), uc.clock.now())),
  }),
  route({
    method: 'put',
    path: '/partner/branding',
    operationId: 'setPartnerBranding',
    tag: TAG,
    summary: "Set the partner's branding",
    description:
      "Shown to the partner's merchants in GET /businesses/me and on their PDF receipts. Replaces the whole branding: a field left out or null is cleared. " +
      'logo_url https only; primary_color #RRGGBB; support_phone E.164.',
    access: { partnerScope: 'branding:write' },
    rateLimit: 'partner',
    bodyExample: { display_name: 'Kudi Bank', logo_url: 'https://cdn.kudi.example/logo.png', primary_color: '#0A7F3D', support_phone: '+2348031234567', support_email: 'merchants@kudi.example' },
    body: object(
      'PartnerBrandingRequest',
      {},
      { display_name: orNull(text(1, 100)), logo_url: orNull(httpsOnlyUrl), primary_color: orNull(hexColor), support_phone: orNull(phone), support_email: orNull(email) },
    ),
    success: { status: 200, description: 'The branding', data: brandingShape },
    failures: failuresOf<FailureOf<typeof uc.setPartnerBranding>>({ NotFound: true }),
    errors: [],
    handler: async ({ partner, body }) => {
      const branding = {
        displayName: body.display_name ?? null,
        logoUrl: body.logo_url ?? null,
        primaryColor: body.primary_color ?? null,
        supportPhone: body.support_phone ?? null,
        supportEmail: body.support_email ?? null,
      };
      return ok('Branding saved', brandingJson(successOf(await uc.setPartnerBranding(partner, branding), 'partner')));
    },
  }),
];
