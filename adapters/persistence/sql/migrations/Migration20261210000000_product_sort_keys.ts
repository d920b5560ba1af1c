import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 37 (docs/adr/0087): a sale's update of its products becomes a HOT update. Every sale sets its products'
 * quantity and updated_at, and both were indexed on products (the list's sorts by them), so PostgreSQL wrote
 * the new row version into all ten indexes of products, the trigram search index's thirty-odd entries
 * included: about 1 ms of PostgreSQL's CPU of a random-cart sale's 3.5. Those two sort keys now live in
 * product_sort_keys, a narrow row with its own two indexes, written by a trigger whenever a product is added
 * or its quantity or updated_at change (every writer: a sale, an import, the seed). With no indexed column of
 * products changed, and room left on its pages (fillfactor 90), the products row is updated in place.
 */
export class Migration20261210000000_product_sort_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table product_sort_keys (
        product_id uuid not null,
        business_id uuid not null,
        quantity_sort integer not null,
        updated_sort timestamptz not null,
        primary key (product_id, business_id),
        foreign key (business_id, product_id) references products (business_id, id) on delete cascade
      );
      insert into product_sort_keys (product_id, business_id, quantity_sort, updated_sort) select id, business_id, quantity, updated_at from products;
      create index product_sort_keys_quantity on product_sort_keys (business_id, quantity_sort, product_id);
      create index product_sort_keys_updated on product_sort_keys (business_id, updated_sort, product_id);
      analyze product_sort_keys;
      drop index products_quantity;
      drop index products_updated;
      alter table products set (fillfactor = 90);
      create function write_product_sort_keys() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into product_sort_keys (product_id, business_id, quantity_sort, updated_sort) values (new.id, new.business_id, new.quantity, new.updated_at);
        else
          update product_sort_keys set quantity_sort = new.quantity, updated_sort = new.updated_at where product_id = new.id and business_id = new.business_id;
        end if;
        return null;
      end $$;
      create trigger products_sort_keys_insert after insert on products for each row execute function write_product_sort_keys();
      create trigger products_sort_keys_update after update on products for each row
        when (old.quantity is distinct from new.quantity or old.updated_at is distinct from new.updated_at) execute function write_product_sort_keys();
    `);
  }
}
