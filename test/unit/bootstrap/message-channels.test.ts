import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../../bootstrap/config.js';
import { configError } from '../../support/config-error.js';
import { messageSender } from '../../../bootstrap/messaging.js';
import { fakeProvider, type FakeProvider } from '../../support/fake-provider.js';

const capture = () => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines, raw: () => lines.map((l) => JSON.stringify(l)).join('\n') };
};


describe('message channels: chosen by configuration', () => {
  describe('with nothing configured', () => {
    it('sends every channel to the log outbox, as before, and says so in one line', async () => {
      const log = capture();
      const { sender, routes } = messageSender(loadConfig({}), log.logger);
      expect(routes).to.deep.equal({ sms: 'log', whatsapp: 'log', email: 'log' });
      expect(log.lines.filter((l) => l.msg === 'message channels')).to.have.length(1);
      for (const channel of ['sms', 'whatsapp', 'email'] as const) expect(await sender.send({ channel, to: 'someone', text: `hello by ${channel}` })).to.deep.equal({});
      expect(log.lines.filter((l) => l.msg === 'outgoing message').map((l) => l.text)).to.deep.equal(['hello by sms', 'hello by whatsapp', 'hello by email']);
    });

    it('sends them to MESSAGES_FILE when it is set', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'bizops-channels-'));
      try {
        const log = capture();
        const { sender, routes } = messageSender(loadConfig({ MESSAGES_FILE: join(dir, 'messages.jsonl') }), log.logger);
        expect(routes).to.deep.equal({ sms: 'file', whatsapp: 'file', email: 'file' });
        await sender.send({ channel: 'sms', to: '+2348031234567', text: 'in the file' });
        expect(JSON.parse(readFileSync(join(dir, 'messages.jsonl'), 'utf8'))).to.deep.equal({ channel: 'sms', to: '+2348031234567', text: 'in the file' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('with providers configured', () => {
    let termii: FakeProvider;
    let graph: FakeProvider;
    let smtp: SMTPServer;
    let smtpPort: number;
    const mails: string[] = [];
    beforeEach(async () => {
      termii = await fakeProvider();
      graph = await fakeProvider();
      smtp = new SMTPServer({
        allowInsecureAuth: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        // the login of SMTP_URL reaches the server
        onAuth: (auth, _session, callback) =>
          auth.username === 'mailer' && auth.password === 'smtp-secret-pass' ? callback(null, { user: auth.username }) : callback(new Error('Invalid username or password')),
        onData(stream, _session, callback) {
          let raw = '';
          stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
          stream.on('end', () => (mails.push(raw), callback()));
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
      smtpPort = (smtp.server.address() as AddressInfo).port;
    });
    afterEach(async () => {
      await termii.close();
      await graph.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    });

    const TERMII = () => ({ TERMII_API_KEY: 'termii-secret-key', TERMII_SENDER_ID: 'BizOps', TERMII_BASE_URL: termii.url });
    const WHATSAPP = () => ({ WHATSAPP_TOKEN: 'whatsapp-secret-token', WHATSAPP_PHONE_NUMBER_ID: '106540352242922', WHATSAPP_GRAPH_URL: graph.url });
    const SMTP = () => ({ SMTP_URL: `smtp://mailer:smtp-secret-pass@127.0.0.1:${smtpPort}`, MAIL_FROM: 'BizOps <no-reply@bizops.example>' });

    it('sends SMS through Termii and leaves the other channels in the log', async () => {
      const log = capture();
      const { sender, routes } = messageSender(loadConfig(TERMII()), log.logger);
      expect(routes).to.deep.equal({ sms: 'termii', whatsapp: 'log', email: 'log' });
      termii.answer({ status: 200, body: { code: 'ok', message_id: '3017544054459', message: 'Successfully Sent', balance: 8, user: 'BizOps' } });
      expect(await sender.send({ channel: 'sms', to: '+2348031234567', text: 'code', purpose: 'CODE' })).to.deep.equal({ providerMessageId: '3017544054459' });
      await sender.send({ channel: 'email', to: 'ada@example.com', text: 'to the log' });
      expect(termii.received).to.have.length(1);
      expect(log.lines.filter((l) => l.msg === 'outgoing message').map((l) => l.channel)).to.deep.equal(['email']);
    });

    it('sends WhatsApp through the Cloud API, with the configured templates', async () => {
      const log = capture();
      const { sender, routes } = messageSender(loadConfig({ ...WHATSAPP(), WHATSAPP_TEMPLATE_RECEIPT: 'sale_receipt_v2', WHATSAPP_TEMPLATE_LANGUAGE: 'en_GB', WHATSAPP_API_VERSION: 'v21.0' }), log.logger);
      expect(routes).to.deep.equal({ sms: 'log', whatsapp: 'whatsapp-cloud', email: 'log' });
      graph.answer({ status: 200, body: { messaging_product: 'whatsapp', contacts: [], messages: [{ id: 'wamid.X' }] } });
      await sender.send({ channel: 'whatsapp', to: '+2348031234567', text: 'receipt', purpose: 'RECEIPT', params: ['Mama Put'] });
      expect(graph.received[0]?.path).to.equal('/v21.0/106540352242922/messages');
      expect(graph.received[0]?.body).to.deep.include({ template: { name: 'sale_receipt_v2', language: { code: 'en_GB' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Mama Put' }] }] } });
    });

    it('sends e-mail through SMTP', async () => {
      const log = capture();
      const { sender, routes } = messageSender(loadConfig(SMTP()), log.logger);
      expect(routes).to.deep.equal({ sms: 'log', whatsapp: 'log', email: 'smtp' });
      mails.length = 0;
      await sender.send({ channel: 'email', to: 'ada@example.com', text: 'Welcome aboard', subject: 'Hello' });
      expect(mails).to.have.length(1);
      expect(mails[0]).to.match(/^Subject: Hello$/m);
    });

    it('runs all three at once, and the start line names them without any secret', () => {
      const log = capture();
      const { routes } = messageSender(loadConfig({ ...TERMII(), ...WHATSAPP(), ...SMTP() }), log.logger);
      expect(routes).to.deep.equal({ sms: 'termii', whatsapp: 'whatsapp-cloud', email: 'smtp' });
      const line = log.lines.find((l) => l.msg === 'message channels');
      expect(line?.channels).to.deep.equal(routes);
      for (const secret of ['termii-secret-key', 'whatsapp-secret-token', 'smtp-secret-pass', 'mailer']) expect(log.raw()).not.to.include(secret);
    });
  });

  describe('configuration checks', () => {
    it('refuses one half of a provider, naming the missing variable', () => {
      expect(configError({ TERMII_API_KEY: 'k' })).to.include('TERMII_API_KEY is set but TERMII_SENDER_ID is not: set both or neither');
      expect(configError({ TERMII_SENDER_ID: 'BizOps' })).to.include('TERMII_SENDER_ID is set but TERMII_API_KEY is not');
      expect(configError({ WHATSAPP_TOKEN: 't' })).to.include('WHATSAPP_TOKEN is set but WHATSAPP_PHONE_NUMBER_ID is not');
      expect(configError({ WHATSAPP_PHONE_NUMBER_ID: '106540352242922' })).to.include('WHATSAPP_PHONE_NUMBER_ID is set but WHATSAPP_TOKEN is not');
      expect(configError({ SMTP_URL: 'smtp://localhost:25' })).to.include('SMTP_URL is set but MAIL_FROM is not');
      expect(configError({ MAIL_FROM: 'no-reply@bizops.ng' })).to.include('MAIL_FROM is set but SMTP_URL is not');
    });

    it('refuses malformed values, and never repeats a secret in the message', () => {
      const message = configError({
        TERMII_API_KEY: 'k',
        TERMII_SENDER_ID: 'A sender id far too long',
        TERMII_BASE_URL: 'ftp://termii',
        WHATSAPP_TOKEN: 't',
        WHATSAPP_PHONE_NUMBER_ID: 'abc',
        WHATSAPP_API_VERSION: '23',
        WHATSAPP_TEMPLATE_RECEIPT: 'Receipt Template',
        SMTP_URL: 'http://user:hunter2-secret@mail.example.com',
        MAIL_FROM: 'not an address',
        MESSAGE_TIMEOUT_MS: '5',
      });
      for (const name of ['TERMII_SENDER_ID', 'TERMII_BASE_URL', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_API_VERSION', 'WHATSAPP_TEMPLATE_RECEIPT', 'SMTP_URL', 'MAIL_FROM', 'MESSAGE_TIMEOUT_MS']) expect(message).to.include(`${name}=`);
      expect(message).to.include('SMTP_URL=(hidden): must be a smtp or smtps URL');
      expect(message).not.to.include('hunter2-secret');
      // the pair checks do not pile on when a half is already reported as malformed
      expect(message).not.to.include('set both or neither');
    });

    it('takes complete pairs, with the defaults for the rest', () => {
      const config = loadConfig({ TERMII_API_KEY: 'k', TERMII_SENDER_ID: 'BizOps', WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '106540352242922', SMTP_URL: 'smtps://u:p@smtp.example.com:465', MAIL_FROM: 'BizOps <no-reply@bizops.ng>' });
      expect(config).to.deep.include({
        TERMII_BASE_URL: 'https://api.ng.termii.com',
        WHATSAPP_GRAPH_URL: 'https://graph.facebook.com',
        WHATSAPP_API_VERSION: 'v23.0',
        WHATSAPP_TEMPLATE_RECEIPT: 'receipt',
        WHATSAPP_TEMPLATE_CREDIT_REMINDER: 'credit_reminder',
        WHATSAPP_TEMPLATE_LANGUAGE: 'en',
        MESSAGE_TIMEOUT_MS: 10000,
      });
    });

    it('takes the callbacks’ keys only with their provider, and WhatsApp’s two together', () => {
      const termii = { TERMII_API_KEY: 'k', TERMII_SENDER_ID: 'BizOps' };
      const whatsapp = { WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '106540352242922' };
      expect(configError({ TERMII_SECRET_KEY: 's' })).to.include('TERMII_SECRET_KEY is set but TERMII_API_KEY is not');
      expect(configError({ WHATSAPP_APP_SECRET: 's', WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-me-please' })).to.include('WHATSAPP_APP_SECRET is set but WHATSAPP_TOKEN is not');
      expect(configError({ ...whatsapp, WHATSAPP_APP_SECRET: 's' })).to.include('WHATSAPP_APP_SECRET is set but WHATSAPP_WEBHOOK_VERIFY_TOKEN is not: set both or neither');
      expect(configError({ ...whatsapp, WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-me-please' })).to.include('WHATSAPP_WEBHOOK_VERIFY_TOKEN is set but WHATSAPP_APP_SECRET is not');
      const short = configError({ ...whatsapp, WHATSAPP_APP_SECRET: 's', WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'short' });
      expect(short).to.include('WHATSAPP_WEBHOOK_VERIFY_TOKEN=(hidden): must be 8 to 256 printable characters');
      expect(short).not.to.include('set both or neither');
      const config = loadConfig({ ...termii, ...whatsapp, TERMII_SECRET_KEY: 'ts', WHATSAPP_APP_SECRET: 'as', WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-me-please' });
      expect(config).to.deep.include({ TERMII_SECRET_KEY: 'ts', WHATSAPP_APP_SECRET: 'as', WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-me-please' });
      expect(loadConfig(termii).TERMII_SECRET_KEY, 'sending without delivery reports is allowed').to.equal(undefined);
    });
  });
});
