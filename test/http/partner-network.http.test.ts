import { expect } from 'chai';
import { aPartner } from '../support/partners.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

const NO_BRANDING = { display_name: null, logo_url: null, primary_color: null, support_phone: null, support_email: null };

describe('HTTP merchants joining and leaving a partner network (consent)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let a: Awaited<ReturnType<typeof aPartner>>;
  let b: Awaited<ReturnType<typeof aPartner>>;
  before(async () => {
    app = await createTestApp();
    a = await aPartner(app, 'Partner A');
    b = await aPartner(app, 'Partner B');
  });
  after(async () => app.close());

  const me = async (token: string) => (await app.request('GET', '/businesses/me', { token })).body.data;
  const consentLog = (businessId: string) => app.persistence.uow.read((r) => r.partnerNetwork.consentLog(businessId));

  it('register with partner_code (any case): the business is in the network from the start, consent logged; GET /businesses/me shows the partner', async () => {
    const phone = aPhone();
    const reg = await app.request('POST', '/auth/register', { body: { phone, first_name: 'Chi', last_name: 'Eze', business_name: 'Chi Mart', partner_code: ` ${a.code.toLowerCase()} ` } });
    expect(reg.status, reg.text).to.equal(201);
    const verify = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    const business = await me(verify.body.data.access_token);
    expect(business.partner).to.deep.equal({ id: a.id, name: 'Partner A', joined_at: app.clock.now().toISOString(), branding: NO_BRANDING });
    expect(await consentLog(business.id)).to.deep.equal([{ partnerId: a.id, kind: 'JOINED', at: app.clock.now(), byUserId: reg.body.data.user_id }]);
  });

  it('register with an unknown partner_code is 422 UNKNOWN_PARTNER_CODE and opens nothing (the phone is still free)', async () => {
    const phone = aPhone();
    const body = { phone, first_name: 'Chi', last_name: 'Eze', business_name: 'Chi Mart', partner_code: 'NOPE2345' };
    const res = await app.request('POST', '/auth/register', { body });
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('UNKNOWN_PARTNER_CODE');
    expect(res.body.error.errors).to.deep.equal([{ field: 'partner_code', message: 'is not the code of a partner' }]);
    expect((await app.request('POST', '/auth/register', { body: { ...body, partner_code: undefined } })).status).to.equal(201);
    expect((await app.request('POST', '/auth/register', { body: { ...body, phone: aPhone(), partner_code: '' } })).status).to.equal(400);
  });

  it('an existing business joins by code, joins the same again (200, unchanged), cannot join another (409), leaves (consent logged), then joins B', async () => {
    const owner = await registerOwner(app);
    const business = await me(owner.accessToken);
    expect(business.partner).to.equal(null);
    const joinedAt = app.clock.now().toISOString();
    const join = await app.request('POST', '/businesses/me/partner', { token: owner.accessToken, body: { partner_code: a.code } });
    expect(join.status, join.text).to.equal(200);
    expect(join.body.data).to.deep.equal({ id: a.id, name: 'Partner A', joined_at: joinedAt, branding: NO_BRANDING });
    app.clock.advance(60_000);
    const again = await app.request('POST', '/businesses/me/partner', { token: owner.accessToken, body: { partner_code: a.code } });
    expect(again.status).to.equal(200);
    expect(again.body.data.joined_at).to.equal(joinedAt);
    const other = await app.request('POST', '/businesses/me/partner', { token: owner.accessToken, body: { partner_code: b.code } });
    expect(other.status).to.equal(409);
    expect(other.body.error.code).to.equal('ALREADY_IN_PARTNER_NETWORK');
    const unknown = await app.request('POST', '/businesses/me/partner', { token: owner.accessToken, body: { partner_code: 'ZZZZ2222' } });
    expect(unknown.status).to.equal(422);
    expect(unknown.body.error.code).to.equal('UNKNOWN_PARTNER_CODE');
    expect((await me(owner.accessToken)).partner.id).to.equal(a.id);

    const left = await app.request('DELETE', '/businesses/me/partner', { token: owner.accessToken });
    expect(left.status).to.equal(200);
    expect(left.body.data).to.deep.equal({ partner_id: a.id, partner_name: 'Partner A', left_at: app.clock.now().toISOString() });
    expect((await me(owner.accessToken)).partner).to.equal(null);
    const gone = await app.request('DELETE', '/businesses/me/partner', { token: owner.accessToken });
    expect(gone.status).to.equal(404);
    expect(gone.body.error.code).to.equal('RESOURCE_NOT_FOUND');

    app.clock.advance(60_000);
    expect((await app.request('POST', '/businesses/me/partner', { token: owner.accessToken, body: { partner_code: b.code } })).status).to.equal(200);
    expect((await me(owner.accessToken)).partner.id).to.equal(b.id);
    const log = await consentLog(business.id);
    expect(log.map((c) => [c.partnerId, c.kind])).to.deep.equal([
      [a.id, 'JOINED'],
      [a.id, 'LEFT'],
      [b.id, 'JOINED'],
    ]);
    expect(log.every((c) => c.byUserId === owner.userId)).to.equal(true);
    expect(log[1]!.at.getTime() - log[0]!.at.getTime()).to.equal(60_000);
  });

  it('bad bodies are 400; the partner key is not a merchant credential (401)', async () => {
    const owner = await registerOwner(app);
    for (const body of [{}, { partner_code: '' }, { partner_code: 'x'.repeat(21) }, { partner_code: 12345678 }, { partner_code: a.code, extra: 1 }]) {
      expect((await app.request('POST', '/businesses/me/partner', { token: owner.accessToken, body })).status, JSON.stringify(body)).to.equal(400);
    }
    const res = await app.request('POST', '/businesses/me/partner', { headers: { 'x-api-key': a.key }, body: { partner_code: a.code } });
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('TOKEN_MISSING');
  });
});
