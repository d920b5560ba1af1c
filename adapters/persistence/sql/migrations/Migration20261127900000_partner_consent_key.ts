import { Migration } from '@mikro-orm/migrations';

/**
 * partner_consents (issue 16) was made before tenant_keys (issue 20) in the same release: its key gets
 * business_id like every tenant table's (docs/adr/0035), so the Citus check holds.
 */
export class Migration20261127900000_partner_consent_key extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      set constraints all immediate;
      alter table partner_consents drop constraint partner_consents_pkey, add constraint partner_consents_pkey primary key (id, business_id);
      set constraints all deferred;
    `);
  }
}
