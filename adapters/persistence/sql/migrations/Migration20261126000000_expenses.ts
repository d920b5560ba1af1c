import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 13: expense categories (the defaults every business gets, and its own) and expenses. An
 * expense is deleted softly (deleted_at, deleted_by) so the audit trail keeps it; every list and
 * report reads `deleted_at is null`. Amounts are kobo above 0; spent_on is a Lagos day.
 */
export class Migration20261126000000_expenses extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table expense_categories (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        name text not null,
        is_default boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (business_id, id)
      );
      create unique index expense_categories_name on expense_categories (business_id, lower(name));
      create table expenses (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        branch_id uuid not null,
        category_id uuid not null,
        amount bigint not null check (amount > 0),
        description text not null,
        vendor text,
        payment_method text not null check (payment_method in ('CASH', 'TRANSFER', 'CARD', 'POS', 'OTHER')),
        spent_on date not null,
        reference text,
        created_by uuid not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz,
        deleted_by uuid,
        check ((deleted_at is null) = (deleted_by is null)),
        foreign key (business_id, category_id) references expense_categories (business_id, id) deferrable initially deferred,
        foreign key (branch_id) references branches (id) deferrable initially deferred,
        foreign key (created_by) references users (id) deferrable initially deferred,
        foreign key (deleted_by) references users (id) deferrable initially deferred
      );
      create index expenses_spent on expenses (business_id, spent_on, id) where deleted_at is null;
      create index expenses_created on expenses (business_id, created_at, id) where deleted_at is null;
      create index expenses_category on expenses (business_id, category_id) where deleted_at is null;
      create index expenses_creator on expenses (business_id, created_by, spent_on) where deleted_at is null;
      -- deleted expenses too: whether a category is in use (CATEGORY_IN_USE), and the foreign keys' checks
      -- when a category or a branch is deleted
      create index expenses_category_any on expenses (business_id, category_id);
      create index expenses_branch on expenses (branch_id);
      -- the defaults every business gets at registration, given to the businesses that exist
      insert into expense_categories (id, business_id, name, is_default, created_at, updated_at)
        select gen_random_uuid(), b.id, d.name, true, now(), now()
        from businesses b
        cross join unnest(array['Rent', 'Salaries and wages', 'Transport', 'Electricity and utilities', 'Fuel and generator',
          'Stock purchase', 'Marketing', 'Bank charges', 'Taxes and levies', 'Repairs and maintenance', 'Other']) as d (name);
    `);
  }
}
