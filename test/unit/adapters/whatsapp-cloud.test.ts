import { expect } from 'chai';
import { MessageRejected } from '../../../application/ports/message-sender.js';
import { ProviderFault } from '../../../adapters/messaging/provider-http.js';
import { whatsappCloud } from '../../../adapters/messaging/whatsapp-cloud.js';
import { fakeProvider, thrownBy, type FakeProvider } from '../../support/fake-provider.js';

const TOKEN = 'EAAJBtesttoken0123456789secret';
// Cloud API answers (cloud-api/reference/messages, support/error-codes), as Meta documents them.
const SENT = { messaging_product: 'whatsapp', contacts: [{ input: '2348031234567', wa_id: '2348031234567' }], messages: [{ id: 'wamid.HBgLMjM0ODAzMTIzNDU2NxUCABEYEjA=' }] };
const graphError = (code: number, message: string, details: string) => ({
  error: { message: `(#${code}) ${message}`, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details }, fbtrace_id: 'Az8or2yhqkZfEZ-_4Qn_Bam' },
});

describe('WhatsApp Cloud API adapter (against a local fake of the Graph API)', () => {
  let graph: FakeProvider;
  let whatsapp: ReturnType<typeof whatsappCloud>;
  beforeEach(async () => {
    graph = await fakeProvider();
    whatsapp = whatsappCloud({
      token: TOKEN,
      phoneNumberId: '106540352242922',
      graphUrl: graph.url,
      apiVersion: 'v23.0',
      templates: { RECEIPT: 'receipt', CREDIT_REMINDER: 'credit_reminder' },
      language: 'en',
      timeoutMs: 500,
    });
  });
  afterEach(() => graph.close());

  const noSecretIn = (error: Error) => expect(`${error.message} ${JSON.stringify(error)}`).not.to.include(TOKEN);

  it('sends a receipt as its template with the body parameters, with the Bearer token, and answers the wamid', async () => {
    graph.answer({ status: 200, body: SENT });
    const sent = await whatsapp.send({ channel: 'whatsapp', to: '+2348031234567', text: 'Receipt R-12 from Mama Put: ₦1,500.50', purpose: 'RECEIPT', params: ['Mama Put', 'R-12', '₦1,500.50'] });
    expect(sent).to.deep.equal({ providerMessageId: 'wamid.HBgLMjM0ODAzMTIzNDU2NxUCABEYEjA=' });
    const [request] = graph.received;
    expect(request?.method).to.equal('POST');
    expect(request?.path).to.equal('/v23.0/106540352242922/messages');
    expect(request?.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(request?.headers['content-type']).to.equal('application/json');
    expect(request?.body).to.deep.equal({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '2348031234567',
      type: 'template',
      template: {
        name: 'receipt',
        language: { code: 'en' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Mama Put' }, { type: 'text', text: 'R-12' }, { type: 'text', text: '₦1,500.50' }] }],
      },
    });
  });

  it('sends a credit reminder as its own template, and other purposes as text', async () => {
    graph.answer({ status: 200, body: SENT }, { status: 200, body: SENT });
    await whatsapp.send({ channel: 'whatsapp', to: '+2348031234567', text: 'reminder', purpose: 'CREDIT_REMINDER', params: ['₦2,000.00'] });
    await whatsapp.send({ channel: 'whatsapp', to: '+2348031234567', text: 'Your verification code is 123456.', purpose: 'CODE' });
    expect((graph.received[0]?.body as { template: { name: string } }).template.name).to.equal('credit_reminder');
    expect(graph.received[1]?.body).to.deep.equal({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '2348031234567',
      type: 'text',
      text: { preview_url: false, body: 'Your verification code is 123456.' },
    });
  });

  it('takes a 400 invalid parameter (a bad number) as a permanent refusal', async () => {
    graph.answer({ status: 400, body: graphError(100, 'Invalid parameter', 'Invalid WhatsApp phone number') });
    const error = await thrownBy(whatsapp.send({ channel: 'whatsapp', to: '+1', text: 'x' }));
    expect(error).to.be.instanceOf(MessageRejected);
    expect(error.message).to.equal('WhatsApp refused the message (HTTP 400): (#100) Invalid parameter: Invalid WhatsApp phone number');
    noSecretIn(error);
  });

  it('says clearly why a text outside the 24-hour window is refused (131047), as a permanent refusal', async () => {
    graph.answer({ status: 400, body: graphError(131047, 'Re-engagement message', 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.') });
    const error = await thrownBy(whatsapp.send({ channel: 'whatsapp', to: '+2348031234567', text: 'hello', purpose: 'CUSTOM' }));
    expect(error).to.be.instanceOf(MessageRejected);
    expect(error.message).to.match(/^WhatsApp refused a free-form text: the person has not written to this business number in the last 24 hours, so only an approved template can reach them/);
  });

  it('names the missing template (132001) in a permanent refusal', async () => {
    graph.answer({ status: 404, body: graphError(132001, 'Template name does not exist in the translation', 'template name (receipt) does not exist in en') });
    const error = await thrownBy(whatsapp.send({ channel: 'whatsapp', to: '+2348031234567', text: 'x', purpose: 'RECEIPT', params: ['a'] }));
    expect(error).to.be.instanceOf(MessageRejected);
    expect(error.message).to.match(/^WhatsApp has no approved template "receipt" in language "en"/);
  });

  it('takes a 401 (expired or bad token, code 190) as passing, without the token in the error', async () => {
    graph.answer({ status: 401, body: graphError(190, 'Access token has expired', `token ${TOKEN} expired`) });
    const error = await thrownBy(whatsapp.send({ channel: 'whatsapp', to: '+2348031234567', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault);
    expect(error.message).to.match(/^WhatsApp refused the token or account \(HTTP 401\); check WHATSAPP_TOKEN/);
    expect(error.message).to.include('[redacted]');
    noSecretIn(error);
  });

  for (const [status, code, title] of [
    [400, 130429, 'Rate limit hit'],
    [400, 131056, '(Business Account, Consumer Account) pair rate limit hit'],
    [429, 4, 'Application request limit reached'],
    [429, 80007, 'Rate limit issues'],
  ] as const) {
    it(`takes rate limit ${code} (HTTP ${status}) as passing, with its Retry-After when sent`, async () => {
      graph.answer({ status, body: graphError(code, title, 'too many messages'), headers: { 'retry-after': '12' } });
      const error = await thrownBy(whatsapp.send({ channel: 'whatsapp', to: '+2348031234567', text: 'x' }));
      expect(error).to.be.instanceOf(ProviderFault).and.not.to.be.instanceOf(MessageRejected);
      expect(error).to.include({ retryAfterMs: 12_000, status });
      expect(error.message).to.match(new RegExp(`^WhatsApp rate limit \\(HTTP ${status}\\); retry after 12 s: \\(#${code}\\) `));
    });
  }

  it('takes a 500 and a 503 (131016) as passing', async () => {
    graph.answer({ status: 500, body: graphError(131000, 'Something went wrong', 'unknown') }, { status: 503, body: graphError(131016, 'Service unavailable', 'try later') });
    for (const status of [500, 503]) {
      const error = await thrownBy(whatsapp.send({ channel: 'whatsapp', to: '+2348031234567', text: 'x' }));
      expect(error).to.be.instanceOf(ProviderFault);
      expect(error).to.include({ status });
    }
  });

  it('takes no answer within the timeout as passing', async () => {
    graph.answer('hang');
    const error = await thrownBy(whatsapp.send({ channel: 'whatsapp', to: '+2348031234567', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault);
    expect(error.message).to.equal('WhatsApp did not answer within 500 ms');
  });
});
