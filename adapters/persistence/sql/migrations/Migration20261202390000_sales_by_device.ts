import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 31: a synced sale's claimed time may not be before its device's previous sync (docs/adr/0039),
 * read as the latest sale the device synced before this sync: one index range per offline sale.
 */
export class Migration20261202390000_sales_by_device extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index sales_by_device on sales (business_id, device_id, created_at) where device_id is not null;');
  }
}
