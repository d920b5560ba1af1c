import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 36: the W3C traceparent of the request that recorded an event, or made a webhook delivery,
 * travels with the row (docs/adr/0066): the jobs the event becomes and the webhook POST carry it.
 * Null when the request brought none. Adding a nullable column without a default rewrites nothing.
 */
export class Migration20261204000000_traceparent extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table outbox add column traceparent text;
      alter table webhook_deliveries add column traceparent text;
    `);
  }
}
