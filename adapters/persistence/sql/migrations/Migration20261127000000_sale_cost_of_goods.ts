import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 13's speed targets: a sale keeps its cost of goods (the sum of its lines' quantity x stored
 * cost price, fixed when it is sold), so the dashboard and profit-and-loss sum sales alone instead
 * of joining every line of the period (docs/performance.md, "Reports under 300 ms").
 */
export class Migration20261127000000_sale_cost_of_goods extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table sales add column cost_of_goods bigint not null default 0 check (cost_of_goods >= 0);
      update sales s set cost_of_goods = c.cost
        from (select sale_id, sum(quantity::bigint * coalesce(cost_price, 0)) as cost from sale_items group by sale_id) c
        where c.sale_id = s.id;
    `);
  }
}
