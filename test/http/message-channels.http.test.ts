import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { fakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The code in a message text (the texts say "Your verification code is 123456."). */
const codeIn = (text: string): string => /verification code is (\d{6})\b/.exec(text)?.[1] ?? '';

for (const persistence of ['postgres', 'memory'] as const) {
  describe(`HTTP messages through the configured providers (${persistence})`, () => {
    let app: TestApp;
    let termii: FakeProvider;
    let smtp: SMTPServer;
    const mails: string[] = [];
    before(async () => {
      termii = await fakeProvider();
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, _session, callback) {
          let raw = '';
          stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
          stream.on('end', () => (mails.push(raw), callback()));
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
      app = await createTestApp({
        persistence,
        configuredMessages: true,
        env: {
          TERMII_API_KEY: 'termii-key-for-the-test',
          TERMII_SENDER_ID: 'BizOps',
          TERMII_BASE_URL: termii.url,
          SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
          MAIL_FROM: 'BizOps <no-reply@bizops.example>',
        },
      });
    });
    after(async () => {
      await app.close();
      await termii.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    });

    it('a registration’s code goes to Termii on the dnd route, and signs in', async () => {
      termii.answer({ status: 200, body: { code: 'ok', message_id: '3017544054459', message: 'Successfully Sent', balance: 8, user: 'BizOps' } });
      const local = `0803${String(Date.now()).slice(-7)}`;
      const reg = await app.request('POST', '/auth/register', { body: { phone: local, first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' } });
      expect(reg.status).to.equal(201);
      const sent = termii.received.at(-1);
      expect(sent?.path).to.equal('/api/sms/send');
      expect(sent?.body).to.deep.include({ to: `234${local.slice(1)}`, from: 'BizOps', type: 'plain', channel: 'dnd', api_key: 'termii-key-for-the-test' });
      const code = codeIn((sent?.body as { sms: string }).sms);
      const verify = await app.request('POST', '/auth/verify-otp', { body: { phone: `+234${local.slice(1)}`, otp: code } });
      expect(verify.status).to.equal(200);
      expect(app.logLines.join('\n')).not.to.include('termii-key-for-the-test');
    });

    it('an e-mail code goes over SMTP, with a subject, and WhatsApp (unconfigured) would stay in the log', async () => {
      const email = `ada.${Date.now()}@example.com`;
      expect((await app.request('POST', '/auth/otp/send', { body: { email } })).status).to.equal(200);
      const mail = mails.find((m) => m.includes(`To: ${email}`));
      expect(mail).to.match(/^Subject: Your verification code$/m);
      expect(codeIn(mail ?? '')).to.match(/^\d{6}$/);
      const channels = app.logLines.map((l) => JSON.parse(l) as { msg?: string; channels?: unknown }).find((l) => l.msg === 'message channels');
      expect(channels?.channels).to.deep.equal({ sms: 'termii', whatsapp: 'log', email: 'smtp' });
    });
  });
}
