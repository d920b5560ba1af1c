import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 21: idempotency claims with a lease and an owner token (a crashed request's key is freed
 * after the lease); a user may hold one current membership and any number of deactivated ones.
 */
export class Migration20261124000000_faults extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table idempotency_keys add column lease_until timestamptz;
      alter table idempotency_keys add column claim_token uuid;
      -- a deactivated membership does not hold its person: they may join or start another business
      alter table memberships drop constraint memberships_user_id_key;
      create unique index memberships_one_current on memberships (user_id) where status <> 'DEACTIVATED';
      create index memberships_user on memberships (user_id, updated_at);
    `);
  }
}
