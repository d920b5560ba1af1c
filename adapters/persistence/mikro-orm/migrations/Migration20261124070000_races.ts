import { Migration } from '@mikro-orm/migrations';

/**
 * Concurrency fixes (docs/adr/0017): ledgers get a sequence number taken inside the row lock, so
 * (created_at, seq) reads as a chain; idempotency claims get a lease (claimed_at + owner token).
 */
export class Migration20261124070000_races extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table stock_movements add column seq bigint generated always as identity;
      alter table credit_entries add column seq bigint generated always as identity;
      create index stock_movements_chain on stock_movements (business_id, created_at, seq);
      create index credit_entries_chain on credit_entries (business_id, customer_id, created_at, seq);
      alter table idempotency_keys add column claimed_at timestamptz;
      alter table idempotency_keys add column claim_token text;
      update idempotency_keys set claimed_at = created_at;
      alter table idempotency_keys alter column claimed_at set not null;
    `);
  }
}
