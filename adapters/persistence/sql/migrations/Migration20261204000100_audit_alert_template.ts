import { Migration } from '@mikro-orm/migrations';

/** Issue 36: notifications gain AUDIT_ALERT, the owner's alert about an audit entry above a threshold (docs/adr/0071). */
export class Migration20261204000100_audit_alert_template extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table notifications drop constraint notifications_template_check;
      alter table notifications add constraint notifications_template_check
        check (template in ('RECEIPT', 'CREDIT_REMINDER', 'CUSTOM', 'LOW_STOCK', 'DAILY_SUMMARY', 'AUDIT_ALERT'));
    `);
  }
}
