import { expect } from 'chai';
import { MessageRejected } from '../../../application/ports/message-sender.js';
import { ProviderFault } from '../../../adapters/messaging/provider-http.js';
import { termiiSms } from '../../../adapters/messaging/termii-sms.js';
import { fakeProvider, thrownBy, type FakeProvider } from '../../support/fake-provider.js';

const API_KEY = 'TLtestkey-0123456789-secret';
// The success answer of Termii's "Send message" (developers.termii.com/messaging-api).
const SENT = { code: 'ok', message_id: '9122821270554876574', message: 'Successfully Sent', balance: 9, user: 'Peter Mcleish' };

describe('Termii SMS adapter (against a local fake of api/sms/send)', () => {
  let termii: FakeProvider;
  let sms: ReturnType<typeof termiiSms>;
  beforeEach(async () => {
    termii = await fakeProvider();
    sms = termiiSms({ apiKey: API_KEY, senderId: 'BizOps', baseUrl: `${termii.url}/`, timeoutMs: 500 });
  });
  afterEach(() => termii.close());

  const noSecretIn = (error: Error) => {
    expect(error.message).not.to.include(API_KEY);
    expect(JSON.stringify(error)).not.to.include(API_KEY);
  };

  it('sends a code on the dnd route, as JSON with the key in the body, and answers the message_id', async () => {
    termii.answer({ status: 200, body: SENT });
    const sent = await sms.send({ channel: 'sms', to: '+2348031234567', text: 'Your verification code is 123456.', purpose: 'CODE' });
    expect(sent).to.deep.equal({ providerMessageId: '9122821270554876574' });
    const [request] = termii.received;
    expect(request?.method).to.equal('POST');
    expect(request?.path).to.equal('/api/sms/send');
    expect(request?.headers['content-type']).to.equal('application/json');
    expect(request?.body).to.deep.equal({
      api_key: API_KEY,
      to: '2348031234567',
      from: 'BizOps',
      sms: 'Your verification code is 123456.',
      type: 'plain',
      channel: 'dnd',
    });
  });

  it('sends every other purpose on the generic route', async () => {
    termii.answer({ status: 200, body: SENT }, { status: 200, body: SENT }, { status: 200, body: SENT });
    await sms.send({ channel: 'sms', to: '+2348031234567', text: 'Receipt', purpose: 'RECEIPT' });
    await sms.send({ channel: 'sms', to: '+2348031234567', text: 'Invite', purpose: 'INVITATION' });
    await sms.send({ channel: 'sms', to: '+2348031234567', text: 'Plain' });
    expect(termii.received.map((r) => (r.body as { channel: string }).channel)).to.deep.equal(['generic', 'generic', 'generic']);
  });

  it('takes a 400 about the number as a permanent refusal (MessageRejected)', async () => {
    termii.answer({ status: 400, body: { code: 'fail', message: 'Invalid phone number' } });
    const error = await thrownBy(sms.send({ channel: 'sms', to: '+23480', text: 'x' }));
    expect(error).to.be.instanceOf(MessageRejected);
    expect((error as unknown as MessageRejected).reason).to.equal('Termii refused the message (HTTP 400): Invalid phone number');
    noSecretIn(error);
  });

  it('takes a 401 (bad key) as passing: the operator fixes the key and the message goes on a retry', async () => {
    termii.answer({ status: 401, body: { message: `Unauthorized: ${API_KEY} is not a valid key` } });
    const error = await thrownBy(sms.send({ channel: 'sms', to: '+2348031234567', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault).and.not.to.be.instanceOf(MessageRejected);
    expect(error.message).to.match(/^Termii refused the API key \(HTTP 401\); check TERMII_API_KEY: Unauthorized: \[redacted\]/);
    noSecretIn(error);
  });

  it('takes a 400 about the account (sender id, balance) as passing, not as the message’s fault', async () => {
    termii.answer({ status: 400, body: { message: 'ApplicationSenderId not found for applicationId: 51976 and senderName: BizOps' } }, { status: 400, body: { message: 'Insufficient balance' } });
    for (let i = 0; i < 2; i++) {
      const error = await thrownBy(sms.send({ channel: 'sms', to: '+2348031234567', text: 'x' }));
      expect(error).to.be.instanceOf(ProviderFault);
      expect(error.message).to.match(/^Termii account problem \(HTTP 400\)/);
    }
  });

  it('takes a 429 as passing and carries its Retry-After', async () => {
    termii.answer({ status: 429, body: { message: 'Too Many Requests' }, headers: { 'retry-after': '30' } });
    const error = await thrownBy(sms.send({ channel: 'sms', to: '+2348031234567', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault);
    expect(error).to.include({ retryAfterMs: 30_000, status: 429 });
    expect(error.message).to.equal('Termii rate limit (HTTP 429); retry after 30 s: Too Many Requests');
  });

  it('takes a 500 as passing', async () => {
    termii.answer({ status: 500, body: { message: 'Server Error' } });
    const error = await thrownBy(sms.send({ channel: 'sms', to: '+2348031234567', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault).and.not.to.be.instanceOf(MessageRejected);
    expect(error).to.include({ status: 500 });
  });

  it('takes no answer within the timeout as passing', async () => {
    termii.answer('hang');
    const started = Date.now();
    const error = await thrownBy(sms.send({ channel: 'sms', to: '+2348031234567', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault);
    expect(error.message).to.equal('Termii did not answer within 500 ms');
    expect(Date.now() - started).to.be.below(3000);
  });

  it('takes an unreachable Termii as passing, without the URL or key in the error', async () => {
    await termii.close();
    const error = await thrownBy(sms.send({ channel: 'sms', to: '+2348031234567', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault);
    expect(error.message).to.equal('Termii could not be reached (ECONNREFUSED)');
    termii = await fakeProvider(); // for afterEach
  });

  it('takes a 200 without a message_id (not Termii’s answer) as passing', async () => {
    termii.answer({ status: 200, body: { hello: 'proxy' } });
    const error = await thrownBy(sms.send({ channel: 'sms', to: '+2348031234567', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault);
  });
});
