import { expect } from 'chai';
import pg from 'pg';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 21: error logs carried the SQL with its values (phones, names).
describe('a database fault in the log', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await createTestApp();
  });
  after(async () => {
    // the trigger goes with the schema (the next file starts from a clean one)
    await app?.close();
  });

  it('names the statement but none of its values, nor the detail that repeats them', async () => {
    const owner = await registerOwner(app);
    const client = new pg.Client({ connectionString: app.databaseUrl! });
    await client.connect();
    try {
      // A fault the application does not expect, raised by the database on the insert itself.
      await client.query(`
        create function refuse_customer() returns trigger language plpgsql as $$
        begin raise exception 'customers are refused' using detail = 'row: ' || new.name || ' ' || new.phone; end $$;
        create trigger refuse_customer before insert on customers for each row execute function refuse_customer();`);
    } finally {
      await client.end();
    }
    const res = await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Chidinma Secretname', phone: '+2348035550123', credit_limit: 1234.56 } });
    expect(res.status).to.equal(500);
    const line = app.logLines.find((l) => l.includes('unexpected fault'));
    expect(line, 'the fault was logged').to.be.a('string');
    const logged = JSON.parse(line!) as { err: { message?: string; code?: string } };
    expect(logged.err.message).to.match(/^insert into "?customers"? \(id, business_id, [\s\S]* - customers are refused$/);
    expect(logged.err.code).to.equal('P0001');
    for (const value of ['Secretname', '8035550123', '123456', owner.identifier.phone!.slice(4)]) {
      expect(line, `the log line holds ${value}`).to.not.include(value);
    }
  });
});
