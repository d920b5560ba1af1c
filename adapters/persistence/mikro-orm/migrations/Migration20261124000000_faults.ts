import { Migration } from '@mikro-orm/migrations';

/** Issue 21: idempotency claims with a lease and an owner token (a crashed request's key is freed after the lease). */
export class Migration20261124000000_faults extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table idempotency_keys add column lease_until timestamptz;
      alter table idempotency_keys add column claim_token uuid;
    `);
  }
}
