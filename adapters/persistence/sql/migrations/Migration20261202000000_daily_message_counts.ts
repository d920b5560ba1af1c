import { Migration } from '@mikro-orm/migrations';

/**
 * Messages a business had sent at the platform's cost on each Lagos day, per quota (MESSAGES asked for
 * through the API, staff INVITATIONS): the plans' daily caps (docs/adr/0040). One row per business, day
 * and quota, counted with a conditional upsert in the transaction that queues the message.
 */
export class Migration20261202000000_daily_message_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table daily_message_counts (
        business_id uuid not null,
        day date not null,
        quota text not null,
        count integer not null,
        primary key (business_id, day, quota)
      );
    `);
  }
}
