import { Migration } from '@mikro-orm/migrations';

/**
 * Users, businesses, branches, memberships, OTP codes and refresh tokens. Foreign keys are checked
 * at commit (deferrable): the ORM flushes a unit of work in its own order, not the use case's.
 */
export class Migration20261122000000_foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table users (
        id uuid primary key,
        phone text unique,
        email text unique,
        first_name text not null,
        last_name text not null,
        verified_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        constraint users_identifier check (phone is not null or email is not null)
      );
      create table businesses (
        id uuid primary key,
        name text not null,
        phone text,
        email text,
        address text,
        category text,
        logo_url text,
        plan text not null default 'FREE' check (plan in ('FREE', 'STARTER', 'BUSINESS', 'PRO')),
        currency char(3) not null default 'NGN',
        timezone text not null default 'Africa/Lagos',
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create table branches (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        name text not null,
        address text,
        phone text,
        is_default boolean not null default false,
        archived_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (business_id, id)
      );
      create unique index branches_one_default on branches (business_id) where is_default;
      create table memberships (
        id uuid primary key,
        business_id uuid not null references businesses (id) deferrable initially deferred,
        user_id uuid not null unique references users (id) deferrable initially deferred,
        role text not null check (role in ('BUSINESS_OWNER', 'STAFF')),
        branch_id uuid,
        status text not null check (status in ('INVITED', 'ACTIVE', 'DEACTIVATED')),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        -- a member's branch is always a branch of the member's own business
        foreign key (business_id, branch_id) references branches (business_id, id) deferrable initially deferred
      );
      create index memberships_business on memberships (business_id);
      create table otp_codes (
        id uuid primary key,
        identifier_key text not null,
        purpose text not null check (purpose in ('SIGN_IN', 'VERIFY')),
        code_hash text not null,
        wrong_tries integer not null default 0,
        consumed_at timestamptz,
        created_at timestamptz not null,
        expires_at timestamptz not null
      );
      create index otp_codes_lookup on otp_codes (identifier_key, created_at desc);
      create table refresh_tokens (
        id uuid primary key,
        family_id uuid not null,
        user_id uuid not null references users (id) deferrable initially deferred,
        token_hash text not null unique,
        expires_at timestamptz not null,
        created_at timestamptz not null,
        rotated_at timestamptz,
        revoked_at timestamptz
      );
      create index refresh_tokens_family on refresh_tokens (family_id);
      create index refresh_tokens_user on refresh_tokens (user_id);
    `);
  }
}
