import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 18: offline sync (docs/adr/0034). Every record a device made offline under its own UUID has a
 * row here, written in the record's transaction: the id is claimed once (its primary key), and a retry
 * with the same content (same fingerprint) answers the existing record instead of making a second.
 */
export class Migration20261127600000_offline_sync extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table client_records (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        kind text not null check (kind in ('SALE', 'CUSTOMER', 'CREDIT_PAYMENT', 'EXPENSE', 'STOCK_ADJUSTMENT')),
        fingerprint text not null,
        client_created_at timestamptz,
        created_at timestamptz not null
      );
    `);
  }
}
