import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 32: a statement that makes webhook deliveries notifies `webhook_deliveries`, delivered when its
 * transaction commits (one notice per transaction: PostgreSQL folds repeats), so the processes running
 * the webhook loop send them at once instead of at their next poll (docs/adr/0043). A trigger: every
 * write path says so, and a transaction that rolls back says nothing.
 */
export class Migration20261203320000_webhook_delivery_notices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function notify_webhook_deliveries() returns trigger language plpgsql as $$
      begin
        perform pg_notify('webhook_deliveries', '');
        return null;
      end $$;

      create trigger webhook_deliveries_made after insert on webhook_deliveries
        for each statement execute function notify_webhook_deliveries();
    `);
  }
}
