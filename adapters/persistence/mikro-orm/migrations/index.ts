import { Migration20261122000000_foundation } from './Migration20261122000000_foundation.js';
import { Migration20261122010000_products } from './Migration20261122010000_products.js';
import { Migration20261122030000_sales } from './Migration20261122030000_sales.js';
import { Migration20261122040000_credit } from './Migration20261122040000_credit.js';
import { Migration20261124000000_faults } from './Migration20261124000000_faults.js';
import { Migration20261124100000_features } from './Migration20261124100000_features.js';
import { Migration20261125000000_sessions } from './Migration20261125000000_sessions.js';
import { Migration20261126000000_expenses } from './Migration20261126000000_expenses.js';
import { Migration20261126120000_outbox } from './Migration20261126120000_outbox.js';
import { Migration20261127000000_sale_cost_of_goods } from './Migration20261127000000_sale_cost_of_goods.js';
import { Migration20261127100000_google_identity } from './Migration20261127100000_google_identity.js';
import { Migration20261127110000_notifications } from './Migration20261127110000_notifications.js';
import { Migration20261127200000_loan_packs } from './Migration20261127200000_loan_packs.js';
import { Migration20261127300000_branch_stock } from './Migration20261127300000_branch_stock.js';
import { Migration20261127700000_tenant_keys } from './Migration20261127700000_tenant_keys.js';
import { Migration20261127800000_offline_sync } from './Migration20261127800000_offline_sync.js';
import { Migration20261127900000_partner_consent_key } from './Migration20261127900000_partner_consent_key.js';
import { Migration20261128000000_sync_changes } from './Migration20261128000000_sync_changes.js';
import { Migration20261201000000_member_change_notices } from './Migration20261201000000_member_change_notices.js';
import { Migration20261203320000_webhook_delivery_notices } from './Migration20261203320000_webhook_delivery_notices.js';
import { Migration20261127500000_partners } from './Migration20261127500000_partners.js';
import { Migration20261127510000_partner_webhooks } from './Migration20261127510000_partner_webhooks.js';

/** Every migration, in order. Listed explicitly so no file globbing happens at start. */
export const migrationsList = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
  { name: 'Migration20261122010000_products', class: Migration20261122010000_products },
  { name: 'Migration20261122030000_sales', class: Migration20261122030000_sales },
  { name: 'Migration20261122040000_credit', class: Migration20261122040000_credit },
  { name: 'Migration20261124000000_faults', class: Migration20261124000000_faults },
  { name: 'Migration20261124100000_features', class: Migration20261124100000_features },
  { name: 'Migration20261125000000_sessions', class: Migration20261125000000_sessions },
  { name: 'Migration20261126000000_expenses', class: Migration20261126000000_expenses },
  { name: 'Migration20261126120000_outbox', class: Migration20261126120000_outbox },
  { name: 'Migration20261127000000_sale_cost_of_goods', class: Migration20261127000000_sale_cost_of_goods },
  { name: 'Migration20261127100000_google_identity', class: Migration20261127100000_google_identity },
  { name: 'Migration20261127110000_notifications', class: Migration20261127110000_notifications },
  { name: 'Migration20261127200000_loan_packs', class: Migration20261127200000_loan_packs },
  { name: 'Migration20261127300000_branch_stock', class: Migration20261127300000_branch_stock },
  { name: 'Migration20261127500000_partners', class: Migration20261127500000_partners },
  { name: 'Migration20261127510000_partner_webhooks', class: Migration20261127510000_partner_webhooks },
  { name: 'Migration20261127700000_tenant_keys', class: Migration20261127700000_tenant_keys },
  { name: 'Migration20261127800000_offline_sync', class: Migration20261127800000_offline_sync },
  { name: 'Migration20261127900000_partner_consent_key', class: Migration20261127900000_partner_consent_key },
  { name: 'Migration20261128000000_sync_changes', class: Migration20261128000000_sync_changes },
  { name: 'Migration20261201000000_member_change_notices', class: Migration20261201000000_member_change_notices },
  { name: 'Migration20261203320000_webhook_delivery_notices', class: Migration20261203320000_webhook_delivery_notices },
];
