import { expect } from 'chai';
import { parseTermiiDeliveryReport, parseWhatsAppStatuses } from '../../../adapters/messaging/delivery-reports.js';

// Termii's documented webhook example (developers.termii.com/events-and-reports), then with each status it lists.
const TERMII_EXAMPLE = {
  type: 'outbound',
  message_id: '5964465985113503103',
  receiver: '2343459509389',
  sender: 'N-Alert',
  message: 'Your Termii confirmation code is 234u53.',
  sent_at: '2020-12-16 11:34:36',
  cost: '3.9',
  command: 'deliver',
  status: 'DELIVERED | Message delivered to handset',
  channel: 'Number Api',
};

const whatsappWebhook = (statuses: unknown[]) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' }, statuses } }],
    },
  ],
});
const status = (id: string, s: string, extra: Record<string, unknown> = {}) => ({ id, status: s, timestamp: '1750857384', recipient_id: '2348031234567', ...extra });

describe('delivery reports: Termii and WhatsApp webhooks → { providerMessageId, status, reason? }', () => {
  it('reads Termii’s documented example as delivered', () => {
    expect(parseTermiiDeliveryReport(TERMII_EXAMPLE)).to.deep.equal({ providerMessageId: '5964465985113503103', status: 'DELIVERED' });
  });

  it('maps each Termii status', () => {
    const of = (s: string) => parseTermiiDeliveryReport({ ...TERMII_EXAMPLE, status: s });
    expect(of('Delivered')).to.deep.equal({ providerMessageId: '5964465985113503103', status: 'DELIVERED' });
    expect(of('Message Sent')?.status).to.equal('SENT');
    expect(of('Received')?.status).to.equal('SENT');
    expect(of('DND Active on Phone Number')).to.deep.equal({ providerMessageId: '5964465985113503103', status: 'FAILED', reason: 'DND Active on Phone Number' });
    expect(of('Message Failed')).to.deep.include({ status: 'FAILED', reason: 'Message Failed' });
    expect(of('Rejected')).to.deep.include({ status: 'FAILED', reason: 'Rejected' });
    expect(of('Expired')).to.deep.include({ status: 'FAILED', reason: 'Expired' });
  });

  it('gives nothing for a Termii payload that is not a delivery report', () => {
    expect(parseTermiiDeliveryReport({ ...TERMII_EXAMPLE, status: 'Something new' })).to.equal(undefined);
    expect(parseTermiiDeliveryReport({ status: 'Delivered' })).to.equal(undefined);
    expect(parseTermiiDeliveryReport({ type: 'device_status', status: 'offline' })).to.equal(undefined);
    for (const junk of [null, undefined, 'Delivered', 42, [], [TERMII_EXAMPLE]]) expect(parseTermiiDeliveryReport(junk)).to.equal(undefined);
  });

  it('reads WhatsApp’s sent, delivered and read statuses (read counts as delivered)', () => {
    const webhook = whatsappWebhook([
      status('wamid.A', 'sent', { conversation: { id: 'a75d17ad06104c51166f948319b03c6a', origin: { type: 'service' } }, pricing: { billable: true, pricing_model: 'CBP', category: 'service' } }),
      status('wamid.B', 'delivered'),
      status('wamid.C', 'read'),
    ]);
    expect(parseWhatsAppStatuses(webhook)).to.deep.equal([
      { providerMessageId: 'wamid.A', status: 'SENT' },
      { providerMessageId: 'wamid.B', status: 'DELIVERED' },
      { providerMessageId: 'wamid.C', status: 'DELIVERED' },
    ]);
  });

  it('reads a failed WhatsApp status with its error as the reason', () => {
    const failed = status('wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDNUQ2NzM1NjE1NDk4NTA0QTIA', 'failed', {
      errors: [
        {
          code: 131047,
          title: 'Re-engagement message',
          message: 'Re-engagement message',
          error_data: { details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' },
          href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
        },
      ],
    });
    expect(parseWhatsAppStatuses(whatsappWebhook([failed]))).to.deep.equal([
      {
        providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDNUQ2NzM1NjE1NDk4NTA0QTIA',
        status: 'FAILED',
        reason: '(#131047) Re-engagement message: Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      },
    ]);
    expect(parseWhatsAppStatuses(whatsappWebhook([status('wamid.D', 'failed')]))).to.deep.equal([{ providerMessageId: 'wamid.D', status: 'FAILED' }]);
  });

  it('ignores incoming messages, other fields, unknown statuses and payloads from elsewhere', () => {
    const incoming = {
      object: 'whatsapp_business_account',
      entry: [{ id: '0', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', messages: [{ from: '16315551181', id: 'ABGGFlA5Fpa', timestamp: '1504902988', type: 'text', text: { body: 'hi' } }] } }] }],
    };
    expect(parseWhatsAppStatuses(incoming)).to.deep.equal([]);
    expect(parseWhatsAppStatuses(whatsappWebhook([status('wamid.E', 'deleted'), { status: 'delivered' }]))).to.deep.equal([]);
    expect(parseWhatsAppStatuses({ ...whatsappWebhook([status('wamid.F', 'delivered')]), object: 'page' })).to.deep.equal([]);
    for (const junk of [null, undefined, 'x', [], { object: 'whatsapp_business_account', entry: 'nope' }]) expect(parseWhatsAppStatuses(junk)).to.deep.equal([]);
  });
});
