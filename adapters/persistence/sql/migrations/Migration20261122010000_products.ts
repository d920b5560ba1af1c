import { Migration } from '@mikro-orm/migrations';

/** Products, the stock ledger and idempotency keys. */
export class Migration20261122010000_products extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create extension if not exists pg_trgm;
      create table products (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        name text not null,
        sku text not null,
        price bigint not null check (price >= 0),
        cost_price bigint check (cost_price >= 0),
        quantity integer not null default 0 check (quantity >= 0),
        category text,
        type text not null default 'PRODUCT' check (type in ('PRODUCT', 'SERVICE')),
        low_stock_threshold integer check (low_stock_threshold >= 0),
        barcode text,
        unit text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check (type = 'PRODUCT' or quantity = 0)
      );
      create unique index products_sku on products (business_id, lower(sku));
      -- keyset pages: (business, sort field, id) for every sort the list offers
      create index products_created on products (business_id, created_at, id);
      create index products_updated on products (business_id, updated_at, id);
      create index products_name on products (business_id, name, id);
      create index products_price on products (business_id, price, id);
      create index products_quantity on products (business_id, quantity, id);
      create index products_category on products (business_id, lower(category));
      -- search: trigram indexes answer ILIKE '%term%' without a sequential scan
      create index products_search on products using gin (
        (name || ' ' || sku || ' ' || coalesce(category, '') || ' ' || coalesce(barcode, '')) gin_trgm_ops
      );
      create table stock_movements (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        product_id uuid not null references products (id) deferrable initially deferred,
        quantity_change integer not null check (quantity_change <> 0),
        quantity_before integer not null,
        quantity_after integer not null check (quantity_after >= 0),
        reason text not null,
        note text,
        unit_cost bigint,
        created_by uuid,
        created_at timestamptz not null,
        check (quantity_after = quantity_before + quantity_change)
      );
      create index stock_movements_created on stock_movements (business_id, created_at, id);
      create index stock_movements_product on stock_movements (business_id, product_id, created_at);
      create table idempotency_keys (
        business_id uuid not null,
        key text not null,
        request_hash text not null,
        response_status integer,
        response_body text,
        created_at timestamptz not null,
        primary key (business_id, key)
      );
    `);
  }
}
