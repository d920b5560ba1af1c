import type { joinPartnerNetwork, leavePartnerNetwork } from '../../../application/partners/network.js';
import { dateTime, object, shape, str, text, uuid } from '../codecs.js';
import { dateTimeJson } from '../json-values.js';
import { successOf } from '../failures.js';
import { ok, OWNER_ONLY, route } from '../route.js';
import { businessPartnerJson, businessPartnerShape } from './partner.views.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface BusinessPartnerUseCases {
  readonly joinPartnerNetwork: ReturnType<typeof joinPartnerNetwork>;
  readonly leavePartnerNetwork: ReturnType<typeof leavePartnerNetwork>;
}

const TAG = 'Business';

/** The merchant's side of a partner network: joining by code and leaving (the owner's consent, docs/adr/0033). */
export const businessPartnerRoutes = (uc: BusinessPartnerUseCases) => [
  route({
    method: 'post',
    path: '/businesses/me/partner',
    operationId: 'joinPartnerNetwork',
    tag: TAG,
    summary: "Join a partner's network (owner)",
    description:
      "The owner accepts a partner (a bank, fintech, POS provider or distributor) by its code: from now on that partner sees the business's figures " +
      '(sales count and value, credit outstanding, staff count; never individual sales, customers or products), and its branding shows in GET /businesses/me. ' +
      'The consent is recorded with its time. Unknown code: 422 UNKNOWN_PARTNER_CODE; already in another partner\'s network: 409 ALREADY_IN_PARTNER_NETWORK ' +
      '(leave it first); the same partner again: 200, nothing changes.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    bodyExample: { partner_code: 'KD7M4Q2P' },
    body: object('JoinPartnerNetworkRequest', { partner_code: text(1, 20, "the partner's code, ignoring case") }),
    success: { status: 200, description: 'The partner the business now belongs to', data: businessPartnerShape },
    failures: failuresOf<FailureOf<typeof uc.joinPartnerNetwork>>({ UnknownPartnerCode: true, AlreadyInPartnerNetwork: true }),
    errors: [],
    handler: async ({ actor, body }) => {
      const r = successOf(await uc.joinPartnerNetwork(actor, body.partner_code), 'partner network');
      return ok(r.joined ? `Joined the network of ${r.partner.name}` : `Already in the network of ${r.partner.name}`, businessPartnerJson(r));
    },
  }),
  route({
    method: 'delete',
    path: '/businesses/me/partner',
    operationId: 'leavePartnerNetwork',
    tag: TAG,
    summary: "Leave the partner's network (owner)",
    description: "Withdraws the consent, recorded with its time: the partner no longer sees the business from the next request on. In no network: 404.",
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The partner left', data: shape('LeftPartnerNetwork', { partner_id: uuid, partner_name: str, left_at: dateTime }) },
    failures: failuresOf<FailureOf<typeof uc.leavePartnerNetwork>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor }) => {
      const r = successOf(await uc.leavePartnerNetwork(actor), 'partner network');
      return ok(`Left the network of ${r.partner.name}`, { partner_id: r.partner.id, partner_name: r.partner.name, left_at: dateTimeJson(r.leftAt) });
    },
  }),
];
