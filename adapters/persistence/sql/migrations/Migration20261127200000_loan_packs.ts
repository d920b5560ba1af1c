import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 15: loan packs (docs/adr/0031). A pack is frozen when made: its document (canonical JSON) and
 * that document's SHA-256 never change; only its payment does, once (PENDING_PAYMENT -> READY with
 * paid_at). A payment row per pack (unique) records who settled it, so a verify, a webhook and a
 * second verify racing make one transition and one row.
 */
export class Migration20261127200000_loan_packs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table loan_packs (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        reference text not null unique check (reference ~ '^LP-[0-9]{8}-[A-HJ-NP-Z2-9]{6}$'),
        status text not null check (status in ('PENDING_PAYMENT', 'READY')),
        months smallint not null check (months in (6, 12)),
        period_start date not null,
        period_end date not null check (period_end >= period_start),
        price bigint not null check (price >= 0),
        currency text not null check (currency = 'NGN'),
        purpose text check (length(purpose) <= 500),
        lender_name text check (length(lender_name) <= 200),
        document text not null,
        sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
        created_by uuid not null references users (id) deferrable initially deferred,
        created_at timestamptz not null,
        paid_at timestamptz,
        checkout_url text,
        checkout_access_code text,
        check ((status = 'READY') = (price = 0 or paid_at is not null)),
        check ((checkout_url is null) = (checkout_access_code is null)),
        unique (business_id, id)
      );
      create index loan_packs_by_business on loan_packs (business_id, created_at, id);
      create table loan_pack_payments (
        id uuid primary key,
        business_id uuid not null,
        loan_pack_id uuid not null unique,
        gateway text not null,
        amount bigint not null check (amount > 0),
        currency text not null,
        paid_at timestamptz not null,
        recorded_at timestamptz not null,
        source text not null check (source in ('verify', 'webhook')),
        foreign key (business_id, loan_pack_id) references loan_packs (business_id, id) deferrable initially deferred
      );
    `);
  }
}
