import { expect } from 'chai';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { MessageRejected } from '../../../application/ports/message-sender.js';
import { ProviderFault } from '../../../adapters/messaging/provider-http.js';
import { smtpEmail } from '../../../adapters/messaging/smtp-email.js';
import { thrownBy } from '../../support/fake-provider.js';

interface Mail {
  readonly from: string | undefined;
  readonly to: string[];
  readonly raw: string;
}

/** A local SMTP server (the smtp-server package) on port 0: it keeps what it accepts and answers as `options` say. */
const localSmtp = async (options: Partial<SMTPServerOptions> = {}) => {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        mails.push({ from: from ? from.address : undefined, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

describe('SMTP e-mail adapter (against a local smtp-server)', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  const start = async (options: Partial<SMTPServerOptions> = {}) => {
    const smtp = await localSmtp(options);
    closers.push(smtp.close);
    return smtp;
  };

  it('delivers the message with From, To, Subject and the text, and answers the Message-ID', async () => {
    const smtp = await start();
    const email = smtpEmail({ url: `smtp://127.0.0.1:${smtp.port}`, from: 'BizOps <no-reply@bizops.example>', timeoutMs: 2000 });
    const sent = await email.send({ channel: 'email', to: 'ada@example.com', text: 'Your verification code is 123456. It expires in 10 minutes.', purpose: 'CODE', subject: 'Your BizOps code' });
    expect(sent.providerMessageId).to.match(/^<.+@.+>$/);
    expect(smtp.mails).to.have.length(1);
    const [mail] = smtp.mails;
    expect(mail?.from).to.equal('no-reply@bizops.example');
    expect(mail?.to).to.deep.equal(['ada@example.com']);
    expect(mail?.raw).to.match(/^From: BizOps <no-reply@bizops\.example>$/m);
    expect(mail?.raw).to.match(/^To: ada@example\.com$/m);
    expect(mail?.raw).to.match(/^Subject: Your BizOps code$/m);
    expect(mail?.raw).to.match(new RegExp(`^Message-ID: ${sent.providerMessageId}$`, 'm'));
    expect(mail?.raw).to.include('Your verification code is 123456. It expires in 10 minutes.');
  });

  it('gives a message without a subject the subject of its purpose', async () => {
    const smtp = await start();
    const email = smtpEmail({ url: `smtp://127.0.0.1:${smtp.port}`, from: 'no-reply@bizops.example', timeoutMs: 2000 });
    await email.send({ channel: 'email', to: 'ada@example.com', text: 'Join us', purpose: 'INVITATION' });
    expect(smtp.mails[0]?.raw).to.match(/^Subject: You are invited to join a team on BizOps$/m);
  });

  it('takes a 550 rejected recipient as a permanent refusal', async () => {
    const smtp = await start({ onRcptTo: (_address, _session, callback) => callback(smtpError('5.1.1 No such user here', 550)) });
    const email = smtpEmail({ url: `smtp://127.0.0.1:${smtp.port}`, from: 'no-reply@bizops.example', timeoutMs: 2000 });
    const error = await thrownBy(email.send({ channel: 'email', to: 'nobody@example.com', text: 'x' }));
    expect(error).to.be.instanceOf(MessageRejected);
    expect(error.message).to.match(/^SMTP server refused the message \(550\): .*No such user here/);
  });

  for (const code of [421, 451]) {
    it(`takes a ${code} temporary answer as passing`, async () => {
      const smtp = await start({ onRcptTo: (_address, _session, callback) => callback(smtpError('4.7.1 Try again later', code)) });
      const email = smtpEmail({ url: `smtp://127.0.0.1:${smtp.port}`, from: 'no-reply@bizops.example', timeoutMs: 2000 });
      const error = await thrownBy(email.send({ channel: 'email', to: 'ada@example.com', text: 'x' }));
      expect(error).to.be.instanceOf(ProviderFault).and.not.to.be.instanceOf(MessageRejected);
      expect(error).to.include({ status: code });
      expect(error.message).to.match(new RegExp(`^SMTP server deferred the message \\(${code}\\)`));
    });
  }

  it('takes a 451 after the data as passing', async () => {
    const smtp = await start({ onData: (stream, _session, callback) => stream.on('end', () => callback(smtpError('4.3.0 Mailbox busy', 451))).resume() });
    const email = smtpEmail({ url: `smtp://127.0.0.1:${smtp.port}`, from: 'no-reply@bizops.example', timeoutMs: 2000 });
    const error = await thrownBy(email.send({ channel: 'email', to: 'ada@example.com', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault);
    expect(error).to.include({ status: 451 });
  });

  it('takes a refused login as passing, without the password in the error', async () => {
    const smtp = await start({ authOptional: false, onAuth: (_auth, _session, callback) => callback(smtpError('Invalid username or password', 535)) });
    const email = smtpEmail({ url: `smtp://mailer:Pa55-w0rd-secret@127.0.0.1:${smtp.port}`, from: 'no-reply@bizops.example', timeoutMs: 2000 });
    const error = await thrownBy(email.send({ channel: 'email', to: 'ada@example.com', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault);
    expect(error.message).to.match(/^SMTP server refused the login; check SMTP_URL/);
    expect(`${error.message} ${JSON.stringify(error)}`).not.to.include('Pa55-w0rd-secret');
  });

  it('takes a server that never greets as passing, within the timeout', async () => {
    const silent: TcpServer = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const { port } = silent.address() as AddressInfo;
    const email = smtpEmail({ url: `smtp://127.0.0.1:${port}`, from: 'no-reply@bizops.example', timeoutMs: 300 });
    const started = Date.now();
    const error = await thrownBy(email.send({ channel: 'email', to: 'ada@example.com', text: 'x' }));
    expect(error).to.be.instanceOf(ProviderFault);
    expect(error.message).to.match(/^SMTP delivery failed \(ETIMEDOUT\)/);
    expect(Date.now() - started).to.be.below(3000);
  });
});
