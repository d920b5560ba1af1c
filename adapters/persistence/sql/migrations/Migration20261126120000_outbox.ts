import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 12: the transactional outbox (docs/adr/0024). Use cases write what happened here in their
 * own transaction; dispatchers claim due rows (next_attempt_at), deliver them and settle them.
 * next_attempt_at is null once a row is delivered or given up; delivered_to names the subscribers
 * that handled it when another failed.
 */
export class Migration20261126120000_outbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table outbox (
        id uuid primary key,
        type text not null,
        business_id uuid,
        payload jsonb not null,
        occurred_at timestamptz not null,
        attempts integer not null default 0,
        next_attempt_at timestamptz,
        delivered_at timestamptz,
        last_error text,
        delivered_to text[] not null default '{}'
      );
      create index outbox_due on outbox (next_attempt_at, id) where next_attempt_at is not null;
      create index outbox_business on outbox (business_id, occurred_at);
    `);
  }
}
