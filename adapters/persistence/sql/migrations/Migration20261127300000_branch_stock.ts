import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 17: stock per branch (docs/adr/0032). A product's stock is kept per (product, branch) in
 * product_stock; products.quantity stays as the maintained total over the branches. Existing stock
 * and every ledger row move to the business's default branch, so nothing is lost and the ledger
 * still sums (per branch and in total). Transfers between branches are a header row; their lines are
 * the TRANSFER_OUT / TRANSFER_IN ledger rows that carry its id.
 */
export class Migration20261127300000_branch_stock extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table product_stock (
        business_id uuid not null,
        product_id uuid not null references products (id) deferrable initially deferred,
        branch_id uuid not null,
        quantity integer not null check (quantity >= 0),
        updated_at timestamptz not null,
        primary key (product_id, branch_id),
        foreign key (business_id, branch_id) references branches (business_id, id) deferrable initially deferred
      );
      create index product_stock_branch on product_stock (business_id, branch_id) where quantity > 0;
      insert into product_stock (business_id, product_id, branch_id, quantity, updated_at)
        select p.business_id, p.id, b.id, p.quantity, p.updated_at
        from products p join branches b on b.business_id = p.business_id and b.is_default
        where p.type = 'PRODUCT';

      alter table stock_movements add column branch_id uuid;
      update stock_movements m set branch_id = b.id from branches b where b.business_id = m.business_id and b.is_default;
      alter table stock_movements alter column branch_id set not null;
      alter table stock_movements add constraint stock_movements_branch_fk
        foreign key (business_id, branch_id) references branches (business_id, id) deferrable initially deferred;
      alter table stock_movements add column transfer_id uuid;
      create index stock_movements_branch on stock_movements (business_id, branch_id, created_at, id);
      create index stock_movements_transfer on stock_movements (business_id, transfer_id) where transfer_id is not null;

      create table stock_transfers (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        from_branch_id uuid not null,
        to_branch_id uuid not null,
        note text,
        created_by uuid not null,
        created_at timestamptz not null,
        check (from_branch_id <> to_branch_id),
        foreign key (business_id, from_branch_id) references branches (business_id, id) deferrable initially deferred,
        foreign key (business_id, to_branch_id) references branches (business_id, id) deferrable initially deferred
      );
      create index stock_transfers_created on stock_transfers (business_id, created_at, id);
    `);
  }
}
