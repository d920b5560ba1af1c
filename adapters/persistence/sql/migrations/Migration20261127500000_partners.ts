import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 16: partners and their API keys (docs/adr/0033). A key is kept only as its SHA-256 hash
 * (unique: authentication looks it up) and a visible prefix; its status is derived from revoked_at
 * and expires_at, so revocation and expiry take effect at once without a job.
 */
export class Migration20261127500000_partners extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table partners (
        id uuid primary key,
        name text not null check (length(name) between 1 and 200),
        code text not null check (code ~ '^[A-Z0-9]{4,20}$'),
        status text not null check (status in ('ACTIVE', 'SUSPENDED')),
        display_name text check (length(display_name) <= 100),
        logo_url text check (logo_url ~ '^https://' and length(logo_url) <= 2000),
        primary_color text check (primary_color ~ '^#[0-9A-Fa-f]{6}$'),
        support_phone text check (length(support_phone) <= 20),
        support_email text check (length(support_email) <= 254),
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index partners_code on partners (upper(code));
      create table partner_api_keys (
        id uuid primary key,
        partner_id uuid not null references partners (id),
        name text not null check (length(name) between 1 and 100),
        prefix text not null,
        hash text not null unique,
        scopes text[] not null check (scopes <@ array['merchants:read', 'analytics:read', 'branding:write', 'webhooks:manage', 'keys:manage']),
        created_at timestamptz not null,
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz
      );
      create index partner_api_keys_by_partner on partner_api_keys (partner_id, created_at desc, id desc);
      -- a business is in at most one partner's network (the primary key)
      create table partner_merchants (
        business_id uuid primary key references businesses (id),
        partner_id uuid not null references partners (id),
        joined_at timestamptz not null
      );
      create index partner_merchants_by_partner on partner_merchants (partner_id, joined_at, business_id);
      -- the consent log: every join and leave, kept after leaving
      create table partner_consents (
        id bigint generated always as identity primary key,
        business_id uuid not null references businesses (id),
        partner_id uuid not null references partners (id),
        kind text not null check (kind in ('JOINED', 'LEFT')),
        at timestamptz not null,
        by_user_id uuid not null references users (id)
      );
      create index partner_consents_by_business on partner_consents (business_id, id);
    `);
  }
}
