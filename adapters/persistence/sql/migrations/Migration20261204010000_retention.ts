import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 36: retention (docs/adr/0068). Each pruning statement finds its oldest rows through an index,
 * so a batch reads what it deletes and not the table. The partial ones are written once a row is done
 * (delivered, settled), never by the hot paths' inserts. `if not exists`: on a large production
 * database an operator may build them first with `create index concurrently` (a migration runs in a
 * transaction, which cannot), and this migration then finds them.
 */
export class Migration20261204010000_retention extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create index if not exists outbox_delivered on outbox (delivered_at) where delivered_at is not null;
      create index if not exists idempotency_keys_created on idempotency_keys (created_at);
      create index if not exists otp_codes_created on otp_codes (created_at);
      create index if not exists webhook_deliveries_settled on webhook_deliveries (created_at) where status <> 'PENDING';
      create index if not exists sessions_expires on sessions (expires_at);
      create index if not exists sessions_revoked on sessions (revoked_at) where revoked_at is not null;
    `);
  }
}
