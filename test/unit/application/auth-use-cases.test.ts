import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { getMe } from '../../../application/auth/get-me.js';
import { REFRESH_REUSE_GRACE_MS, refreshSession } from '../../../application/auth/refresh-session.js';
import { register } from '../../../application/auth/register.js';
import { requestSignInCode } from '../../../application/auth/request-sign-in-code.js';
import { verifySignInCode } from '../../../application/auth/verify-sign-in-code.js';
import type { TokenIssuer } from '../../../application/ports/token-issuer.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { deliverAfterCommit } from '../../../adapters/persistence/deliver-after-commit.js';
import { createDispatcher } from '../../../application/events/dispatcher.js';
import { sendMessages } from '../../../application/events/send-messages.js';
import { inMemory } from '../../../bootstrap/persistence.js';
import { phoneIdentifier } from '../../../domain/identifier.js';
import { normalisePhone } from '../../../domain/phone.js';
import { recordingOutbox, testClock } from '../../support/test-app.js';

/** Use cases wired to in-memory adapters, the way compose.ts wires the real ones. */
const setup = () => {
  const issued: unknown[] = [];
  const tokens: TokenIssuer = {
    issueAccessToken: async (actor) => {
      issued.push(actor);
      return { token: `token-${issued.length}`, expiresIn: 3600 };
    },
  };
  const persistence = inMemory();
  const clock = testClock();
  const messages = recordingOutbox();
  const dispatcher = createDispatcher({ outbox: persistence.outbox, clock, subscribers: [sendMessages({ messages, clock })] });
  const deps = { uow: deliverAfterCommit(persistence.uow, dispatcher), clock, crypto: nodeCrypto(new Uint8Array(32)), messages, tokens };
  return { deps, issued };
};

const ada = phoneIdentifier(normalisePhone('08031234567')!);
const cmd = { identifier: ada, firstName: 'Ada', lastName: 'Obi', businessName: 'Ada Stores' };

describe('auth use cases (in memory)', () => {
  it('register makes the user, a FREE Lagos NGN business, its default branch and the owner; verify activates', async () => {
    const { deps, issued } = setup();
    const reg = await register(deps)(cmd);
    expect(E.isRight(reg)).to.equal(true);
    expect(deps.messages.sent).to.have.length(1);
    expect(deps.messages.sent[0]).to.include({ channel: 'sms', to: '+2348031234567' });

    const signedIn = await verifySignInCode(deps)(ada, deps.messages.lastCode('+2348031234567'));
    if (E.isLeft(signedIn)) throw new Error(signedIn.left._tag);
    expect(signedIn.right.firstVerification).to.equal(true);
    const actor = issued[0] as { userId: string; businessId: string; roles: string[] };
    expect(actor.roles).to.deep.equal(['BUSINESS_OWNER']);

    const me = await getMe(deps)(actor as never);
    if (E.isLeft(me)) throw new Error('no me');
    expect(me.right.business).to.include({ plan: 'FREE', timezone: 'Africa/Lagos', currency: 'NGN', name: 'Ada Stores' });
    expect(me.right.branch).to.include({ isDefault: true });
    expect(me.right.user.verifiedAt).to.not.equal(null);
  });

  it('register of a taken identifier is DuplicateIdentifier and changes nothing', async () => {
    const { deps } = setup();
    await register(deps)(cmd);
    const again = await register(deps)({ ...cmd, businessName: 'Other' });
    expect(again).to.deep.equal(E.left({ _tag: 'DuplicateIdentifier', kind: 'phone' }));
    expect(deps.messages.sent).to.have.length(1);
  });

  it('login for an unknown identifier answers the same and sends nothing', async () => {
    const { deps } = setup();
    const r = await requestSignInCode(deps)(ada);
    expect(E.isRight(r)).to.equal(true);
    expect(deps.messages.sent).to.have.length(0);
    expect(E.isLeft(await verifySignInCode(deps)(ada, '123456'))).to.equal(true);
  });

  it('refresh rotates within the family and a replay (after the grace window) revokes it', async () => {
    const { deps } = setup();
    await register(deps)(cmd);
    const s = await verifySignInCode(deps)(ada, deps.messages.lastCode('+2348031234567'));
    if (E.isLeft(s)) throw new Error('sign-in failed');
    const r1 = await refreshSession(deps)(s.right.refreshToken);
    if (E.isLeft(r1)) throw new Error('refresh failed');
    deps.clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    expect(await refreshSession(deps)(s.right.refreshToken)).to.deep.equal(E.left({ _tag: 'RefreshTokenInvalid' }));
    expect(await refreshSession(deps)(r1.right.refreshToken)).to.deep.equal(E.left({ _tag: 'RefreshTokenInvalid' }));
  });

  it('refreshes of one token at once, or within the grace window, all get its one successor; the successor rotates on', async () => {
    const { deps } = setup();
    await register(deps)(cmd);
    const s = await verifySignInCode(deps)(ada, deps.messages.lastCode('+2348031234567'));
    if (E.isLeft(s)) throw new Error('sign-in failed');
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => refreshSession(deps)(s.right.refreshToken)));
    const tokens = all.map((r) => (E.isRight(r) ? r.right.refreshToken : r.left._tag));
    expect(new Set(tokens).size).to.equal(1);
    expect(tokens[0]).to.equal(deps.crypto.successorToken(s.right.refreshToken));
    deps.clock.advance(REFRESH_REUSE_GRACE_MS);
    const edge = await refreshSession(deps)(s.right.refreshToken);
    expect(E.isRight(edge) && edge.right.refreshToken).to.equal(tokens[0]);
    const next = await refreshSession(deps)(tokens[0]!);
    expect(E.isRight(next)).to.equal(true);
  });
});
