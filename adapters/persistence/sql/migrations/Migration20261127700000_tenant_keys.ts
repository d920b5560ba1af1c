import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 20: every tenant table's primary and unique keys include business_id, as Citus requires of
 * a table distributed by it (docs/adr/0035). Keys become (old columns…, business_id): business_id
 * last, so lookups by id alone keep using the key's index. Foreign keys to a changed key become
 * (business_id, x_id), so a row can only point inside its own business (and shard).
 * credit_allocations gets its business_id (from its payment); loan-pack references stay unique
 * across businesses through loan_pack_references, which holds no tenant data.
 */
const PRIMARY_KEYS: Record<string, string> = {
  branches: 'id', credit_entries: 'id', customers: 'id', expense_categories: 'id', expenses: 'id', loan_pack_payments: 'id',
  loan_packs: 'id', notifications: 'id', products: 'id', sales: 'id', stock_movements: 'id', stock_transfers: 'id',
  customer_reminders: 'customer_id', low_stock_alerts: 'product_id', sale_items: 'sale_id, position',
  product_stock: 'product_id, branch_id', credit_allocations: 'payment_id, sale_id',
};

/** Foreign keys on a single id, re-pointed at (business_id, id): [table, constraint, column, referenced table]. */
const SINGLE_COLUMN_FKS: [string, string, string, string][] = [
  ['expenses', 'expenses_branch_id_fkey', 'branch_id', 'branches'],
  ['credit_allocations', 'credit_allocations_payment_id_fkey', 'payment_id', 'credit_entries'],
  ['credit_allocations', 'credit_allocations_sale_id_fkey', 'sale_id', 'sales'],
  ['stock_movements', 'stock_movements_product_id_fkey', 'product_id', 'products'],
  ['sale_items', 'sale_items_product_id_fkey', 'product_id', 'products'],
  ['product_stock', 'product_stock_product_id_fkey', 'product_id', 'products'],
  ['sale_items', 'sale_items_sale_id_fkey', 'sale_id', 'sales'],
];

const UNIQUE_KEYS: [string, string, string][] = [
  ['loan_pack_payments', 'loan_pack_payments_loan_pack_id_key', 'loan_pack_id'],
  ['loan_packs', 'loan_packs_reference_key', 'reference'],
  ['notifications', 'notifications_source_event_id_key', 'source_event_id'],
];

export class Migration20261127700000_tenant_keys extends Migration {
  override async up(): Promise<void> {
    // Earlier migrations in the same transaction may leave deferred key checks pending, which
    // blocks ALTER TABLE: run them now, and defer again at the end (every key here is deferred).
    this.addSql(`
      set constraints all immediate;
      alter table credit_allocations add column business_id uuid;
      update credit_allocations a set business_id = e.business_id from credit_entries e where e.id = a.payment_id;
      alter table credit_allocations alter column business_id set not null;
      create table loan_pack_references (reference text primary key);
      insert into loan_pack_references (reference) select reference from loan_packs;`);
    for (const [table, name] of SINGLE_COLUMN_FKS) this.addSql(`alter table ${table} drop constraint ${name};`);
    for (const [table, columns] of Object.entries(PRIMARY_KEYS)) {
      this.addSql(`alter table ${table} drop constraint ${table}_pkey, add constraint ${table}_pkey primary key (${columns}, business_id);`);
    }
    for (const [table, name, column] of UNIQUE_KEYS) {
      this.addSql(`alter table ${table} drop constraint ${name}, add constraint ${name} unique (${column}, business_id);`);
    }
    for (const [table, name, column, target] of SINGLE_COLUMN_FKS) {
      this.addSql(
        `alter table ${table} add constraint ${name} foreign key (business_id, ${column}) references ${target} (business_id, id) deferrable initially deferred;`,
      );
    }
    this.addSql('set constraints all deferred;');
  }

  override async down(): Promise<void> {
    this.addSql('set constraints all immediate;');
    for (const [table, name] of SINGLE_COLUMN_FKS) this.addSql(`alter table ${table} drop constraint ${name};`);
    for (const [table, name, column] of UNIQUE_KEYS) this.addSql(`alter table ${table} drop constraint ${name}, add constraint ${name} unique (${column});`);
    for (const [table, columns] of Object.entries(PRIMARY_KEYS)) {
      this.addSql(`alter table ${table} drop constraint ${table}_pkey, add constraint ${table}_pkey primary key (${columns});`);
    }
    for (const [table, name, column, target] of SINGLE_COLUMN_FKS) {
      this.addSql(`alter table ${table} add constraint ${name} foreign key (${column}) references ${target} (id) deferrable initially deferred;`);
    }
    this.addSql('drop table loan_pack_references; alter table credit_allocations drop column business_id; set constraints all deferred;');
  }
}
