import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 16: partners' webhooks (docs/adr/0033). Deliveries are rows: made in the job that takes an
 * event from the outbox (unique per event and endpoint, so a repeated job adds none), attempted in
 * order per endpoint under a lease, retried until 72 h after they were made.
 */
export class Migration20261127510000_partner_webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table webhook_endpoints (
        id uuid primary key,
        partner_id uuid not null references partners (id),
        url text not null check (length(url) <= 2000),
        description text check (length(description) <= 500),
        events text[] not null,
        secret text not null,
        previous_secret text,
        previous_secret_until timestamptz,
        status text not null check (status in ('ACTIVE', 'FAILING', 'DISABLED')),
        failing_since timestamptz,
        last_error text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index webhook_endpoints_by_partner on webhook_endpoints (partner_id, created_at, id);
      create table webhook_deliveries (
        id uuid primary key,
        -- the order deliveries were made in: each endpoint's go out in this order
        seq bigint generated always as identity,
        partner_id uuid not null references partners (id),
        endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
        message_id text not null,
        event text not null,
        outbox_id uuid,
        payload text not null,
        status text not null check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
        attempts integer not null default 0,
        next_attempt_at timestamptz,
        locked_until timestamptz,
        last_attempt_at timestamptz,
        response_code integer,
        duration_ms integer,
        last_error text,
        created_at timestamptz not null,
        unique (endpoint_id, outbox_id)
      );
      create index webhook_deliveries_by_endpoint on webhook_deliveries (endpoint_id, created_at, id);
      create index webhook_deliveries_pending on webhook_deliveries (endpoint_id, seq) where status = 'PENDING';
    `);
  }
}
