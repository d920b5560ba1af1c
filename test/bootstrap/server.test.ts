import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { codeFromLog, exited, post, startServer as startProcess } from '../support/server-process.js';

const startServer = (dataDir: string) => startProcess({ DATA_DIR: dataDir });

describe('the server process on the embedded default', function () {
  this.timeout(120_000);

  it('keeps data across a restart, finishes in-flight requests on SIGTERM and reopens cleanly after a stop under load', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bizops-server-'));
    const first = await startServer(dataDir);
    const phone = '+2348039990001';
    const reg = await post(first.base, '/auth/register', { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Kept Stores' });
    expect(reg.status).to.equal(201);
    const code = await codeFromLog(first.lines, phone); // the OTP is in the log outbox

    // Load: registrations in flight when SIGTERM arrives must complete (or be refused before they start).
    const inFlight = Array.from({ length: 40 }, (_, i) =>
      post(first.base, '/auth/register', { phone: `+23480399${String(10000 + i).slice(-5)}`, first_name: 'L', last_name: 'D', business_name: `Load ${i}` }).then(
        (r) => r.status,
        () => 'refused',
      ),
    );
    await new Promise((r) => setTimeout(r, 30));
    first.child.kill('SIGTERM');
    const [code1, outcomes] = await Promise.all([exited(first.child), Promise.all(inFlight)]);
    expect(code1).to.equal(0);
    expect(outcomes.every((o) => o === 201 || o === 'refused'), JSON.stringify(outcomes)).to.equal(true);
    expect(first.lines.some((l) => l.includes('"stopped"'))).to.equal(true);

    const second = await startServer(dataDir);
    try {
      const health = await fetch(`${second.base}/actuator/health`);
      expect(health.status).to.equal(200);
      const verify = await post(second.base, '/auth/verify-otp', { phone, otp: code });
      expect(verify.status, 'the code made before the restart is still there').to.equal(200);
      const token = ((await verify.json()) as { data: { access_token: string } }).data.access_token;
      const me = await fetch(`${second.base}/businesses/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await me.json()) as { data: { name: string } }).data.name).to.equal('Kept Stores');
      // every registration that was answered 201 before the stop survived it
      const accepted = outcomes.filter((o) => o === 201).length;
      for (let i = 0; i < 40; i++) {
        const again = await post(second.base, '/auth/register', { phone: `+23480399${String(10000 + i).slice(-5)}`, first_name: 'L', last_name: 'D', business_name: 'x' });
        if (outcomes[i] === 201) expect(again.status, `registration ${i} was kept`).to.equal(409);
      }
      expect(accepted).to.be.greaterThan(0);
    } finally {
      second.child.kill('SIGINT');
      expect(await exited(second.child)).to.equal(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
