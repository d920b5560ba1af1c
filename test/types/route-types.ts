// Type-level tests of adapters/http/route.ts (docs/adr/0051): compiled by `npm run typecheck`
// (tsconfig.json includes test/), never run. Each `@ts-expect-error` fails the typecheck once the
// line below it compiles, i.e. once the route types stop catching the mistake.
import type { Actor } from '../../domain/roles.js';
import type { PartnerActor } from '../../domain/partner.js';
import { ok, OWNER_AND_STAFF, route, type PathParams } from '../../adapters/http/route.js';

const common = { operationId: 'typeTest', summary: 'Type test', tag: 'Test', rateLimit: 'none', errors: [], success: { status: 200, description: 'x', data: undefined as never } } as const;
const useActor = (actor: Actor) => actor.userId;
const usePartner = (partner: PartnerActor) => partner.partnerId;

// A role-gated route: its handler has an Actor and a session, and the path's parameters as strings.
route({
  ...common,
  method: 'post',
  path: '/sales/:id/void',
  access: { roles: OWNER_AND_STAFF },
  handler: async ({ actor, sessionId, params, partner }) => {
    const id: string = params.id;
    const session: string = sessionId;
    // @ts-expect-error -- the path has no :nope
    void params.nope;
    // @ts-expect-error -- a member's route has no partner
    usePartner(partner);
    return ok('ok', [useActor(actor), id, session]);
  },
});

// A public route: nobody is signed in, so its actor is no Actor.
route({
  ...common,
  method: 'get',
  path: '/health',
  access: 'public',
  handler: async ({ actor, params }) => {
    // @ts-expect-error -- a public route has no actor to use as an Actor
    useActor(actor);
    // @ts-expect-error -- a path without parameters has none
    void params.id;
    // a check narrows it (it is always undefined here)
    return ok('ok', actor === undefined ? null : useActor(actor));
  },
});

// A partner route: a partner, no member.
route({
  ...common,
  method: 'get',
  path: '/partner/merchants/:id',
  access: { partnerScope: 'merchants:read' },
  handler: async ({ actor, partner, params }) => {
    // @ts-expect-error -- a partner route has no member
    useActor(actor);
    return ok('ok', [usePartner(partner), params.id]);
  },
});

// Several parameters, and the loose form of a path known only as a string.
const two: PathParams<'/a/:first/b/:second'> = { first: 'x', second: 'y' };
// @ts-expect-error -- both parameters are required
const missing: PathParams<'/a/:first/b/:second'> = { first: 'x' };
const loose: PathParams<string> = {};
const maybe: string | undefined = loose['anything'];
void [two, missing, maybe];
