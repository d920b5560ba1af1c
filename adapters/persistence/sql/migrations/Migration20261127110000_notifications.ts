import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 14: notifications (docs/adr/0030). `notifications` holds each message and what became of it;
 * `notification_preferences` the owner's settings (a row once saved) and the last Lagos day a daily
 * summary went out; `customer_reminders` when each customer was last reminded; `low_stock_alerts`
 * the products alerted and not restocked since. Customers gain `notifications_opt_out`.
 */
export class Migration20261127110000_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table customers add column notifications_opt_out boolean not null default false;
      create table notifications (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        channel text not null check (channel in ('SMS', 'WHATSAPP', 'EMAIL')),
        recipient text not null,
        template text not null check (template in ('RECEIPT', 'CREDIT_REMINDER', 'CUSTOM', 'LOW_STOCK', 'DAILY_SUMMARY')),
        customer_id uuid,
        sale_id uuid,
        product_id uuid,
        message text,
        summary_date date,
        status text not null check (status in ('QUEUED', 'SENT', 'DELIVERED', 'FAILED')),
        attempts integer not null default 0 check (attempts >= 0),
        provider_message_id text,
        failure_reason text,
        text text,
        created_by uuid,
        source_event_id uuid unique,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        sent_at timestamptz
      );
      create index notifications_created on notifications (business_id, created_at, id);
      create index notifications_customer on notifications (business_id, customer_id, created_at) where customer_id is not null;
      create index notifications_provider on notifications (provider_message_id) where provider_message_id is not null;
      create table notification_preferences (
        business_id uuid primary key references businesses (id) deferrable initially deferred,
        preferences jsonb not null,
        daily_summary_enabled boolean not null default false,
        daily_summary_time text not null default '20:00',
        credit_reminders_enabled boolean not null default false,
        daily_summary_sent_on date,
        updated_at timestamptz not null
      );
      create index notification_preferences_summary on notification_preferences (daily_summary_time) where daily_summary_enabled;
      create table customer_reminders (
        customer_id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        last_reminded_at timestamptz not null
      );
      create table low_stock_alerts (
        product_id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        alerted_at timestamptz not null
      );
    `);
  }
}
