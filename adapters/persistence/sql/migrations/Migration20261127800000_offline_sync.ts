import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 18: offline sync (docs/adr/0034). Every record a device made offline under its own UUID has a
 * row here, written in the record's transaction: the id is claimed once (its primary key, with
 * business_id as every tenant key has since issue 20's tenant_keys, docs/adr/0035), and a retry
 * with the same content (same fingerprint) answers the existing record instead of making a second.
 *
 * A sale a till made offline is a fact: when it syncs to too little stock it still takes it, below
 * zero. The quantity checks of products and product_stock move into the stock statement (every other
 * writer still refuses to go below zero there); the ledger keeps a check that only a SALE row may leave
 * a branch below zero (or a receipt that does not lift it back to zero yet). Each shortfall is a
 * sale_conflicts row the owner resolves.
 */
export class Migration20261127800000_offline_sync extends Migration {
  override async up(): Promise<void> {
    // Earlier migrations of the same run may leave deferred foreign-key checks pending on tables altered
    // below (PostgreSQL refuses ALTER TABLE then): check them now.
    this.addSql(`
      set constraints all immediate;
      create table client_records (
        id uuid not null,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        kind text not null check (kind in ('SALE', 'CUSTOMER', 'CREDIT_PAYMENT', 'EXPENSE', 'STOCK_ADJUSTMENT')),
        fingerprint text not null,
        client_created_at timestamptz,
        created_at timestamptz not null,
        primary key (id, business_id)
      );

      alter table products drop constraint products_quantity_check;
      alter table product_stock drop constraint product_stock_quantity_check;
      alter table stock_movements drop constraint stock_movements_quantity_after_check;
      alter table stock_movements add constraint stock_movements_quantity_after_check
        check (quantity_after >= 0 or reason = 'SALE' or quantity_change > 0);

      alter table sales add column device_id text;
      alter table sales add column provisional_receipt_number text;
      alter table sales add column client_created_at timestamptz;
      alter table sales add column needs_review boolean not null default false;
      create unique index sales_provisional_receipt_number on sales (business_id, provisional_receipt_number) where provisional_receipt_number is not null;
      create index sales_needs_review on sales (business_id) where needs_review;

      create table sale_conflicts (
        id uuid not null,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        sale_id uuid not null,
        product_id uuid not null,
        branch_id uuid not null,
        requested integer not null check (requested > 0),
        available integer not null check (available >= 0),
        shortfall integer not null check (shortfall > 0 and shortfall <= requested),
        status text not null check (status in ('OPEN', 'RESOLVED')),
        resolution text check (resolution in ('STOCK_CORRECTION', 'VOID')),
        quantity_change integer,
        note text,
        resolved_by uuid,
        resolved_at timestamptz,
        created_at timestamptz not null,
        check ((status = 'OPEN') = (resolution is null)),
        primary key (id, business_id),
        foreign key (business_id, sale_id) references sales (business_id, id) deferrable initially deferred,
        foreign key (business_id, product_id) references products (business_id, id) deferrable initially deferred
      );
      create index sale_conflicts_list on sale_conflicts (business_id, created_at, id);
      create index sale_conflicts_sale on sale_conflicts (sale_id);
    `);
  }
}
