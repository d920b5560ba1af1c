import { plannedEachTime, type Sql } from './sql-session.js';
import type { PartnerRepositories } from '../../../application/partners/ports.js';
import type { Partner, PartnerApiKey, PartnerScope, PartnerStatus } from '../../../domain/partner.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource } from './keyset.sql.js';
import { firstRow, unlessDuplicate, type Row } from './sql-helpers.js';
import { sqlPartnerInsights } from './partner-insights.sql.js';

const PARTNER_COLUMNS = 'id, name, code, status, display_name, logo_url, primary_color, support_phone, support_email, created_at, updated_at';
const KEY_COLUMNS = 'id, partner_id, name, prefix, hash, scopes, created_at, expires_at, revoked_at, last_used_at';

const KEYS: KeysetSource<'created_at'> = {
  select: KEY_COLUMNS,
  from: 'partner_api_keys',
  tenantColumn: 'partner_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['name'],
  dateColumn: 'created_at',
};

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export const partnerFromRow = (r: Row): Partner => ({
  id: String(r.id),
  name: String(r.name),
  code: String(r.code),
  status: r.status as PartnerStatus,
  branding: { displayName: text(r.display_name), logoUrl: text(r.logo_url), primaryColor: text(r.primary_color), supportPhone: text(r.support_phone), supportEmail: text(r.support_email) },
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

const keyFromRow = (r: Row): PartnerApiKey => ({
  id: String(r.id),
  partnerId: String(r.partner_id),
  name: String(r.name),
  prefix: String(r.prefix),
  hash: String(r.hash),
  scopes: r.scopes as PartnerScope[],
  createdAt: asDate(r.created_at),
  expiresAt: asOptionalDate(r.expires_at),
  revokedAt: asOptionalDate(r.revoked_at),
  lastUsedAt: asOptionalDate(r.last_used_at),
});

const partnerValues = (p: Partner) => [
  p.id, p.name, p.code, p.status, p.branding.displayName, p.branding.logoUrl, p.branding.primaryColor, p.branding.supportPhone, p.branding.supportEmail, p.createdAt, p.updatedAt,
];

/** Partners and their API keys over SQL; every key statement names its partner. */
export const sqlPartnersModule = (db: Sql): PartnerRepositories => ({
  partners: {
    async add(p) {
      const done = await unlessDuplicate(db, `insert into partners (${PARTNER_COLUMNS}) values (${PARTNER_COLUMNS.split(',').map(() => '?').join(', ')})`, partnerValues(p));
      return done === 'done' ? 'added' : 'duplicate_code';
    },
    findById: (id) => firstRow(db, `select ${PARTNER_COLUMNS} from partners where id = ?`, [id], partnerFromRow),
    findByCode: (code) => firstRow(db, `select ${PARTNER_COLUMNS} from partners where upper(code) = upper(?)`, [code], partnerFromRow),
    async save(p) {
      await db.execute(
        `update partners set status = ?, display_name = ?, logo_url = ?, primary_color = ?, support_phone = ?, support_email = ?, updated_at = ? where id = ?`,
        [p.status, p.branding.displayName, p.branding.logoUrl, p.branding.primaryColor, p.branding.supportPhone, p.branding.supportEmail, p.updatedAt, p.id],
      );
    },
  },
  partnerApiKeys: {
    async add(k) {
      // scopes travel as one comma-joined string: the driver would spread a JS array into several parameters
      await db.execute(
        `insert into partner_api_keys (${KEY_COLUMNS}) values (?, ?, ?, ?, ?, string_to_array(?, ','), ?, ?, ?, ?)`,
        [k.id, k.partnerId, k.name, k.prefix, k.hash, k.scopes.join(','), k.createdAt, k.expiresAt, k.revokedAt, k.lastUsedAt],
      );
    },
    findByHash: (hash) => firstRow(db, `select ${KEY_COLUMNS} from partner_api_keys where hash = ?`, [hash], keyFromRow),
    findById: (partnerId, keyId) => firstRow(db, `select ${KEY_COLUMNS} from partner_api_keys where partner_id = ? and id = ?`, [partnerId, keyId], keyFromRow),
    list: async (partnerId) =>
      (await db.execute<Row[]>(`select ${KEY_COLUMNS} from partner_api_keys where partner_id = ? order by created_at desc, id desc`, [partnerId])).map(keyFromRow),
    page: (partnerId, page) => keysetPage(db, KEYS, partnerId, page, [], keyFromRow),
    async save(k) {
      await db.execute('update partner_api_keys set expires_at = ?, revoked_at = ? where partner_id = ? and id = ?', [k.expiresAt, k.revokedAt, k.partnerId, k.id]);
    },
    async touch(partnerId, keyId, at) {
      await db.execute('update partner_api_keys set last_used_at = ? where partner_id = ? and id = ? and (last_used_at is null or last_used_at < ?)', [at, partnerId, keyId, at]);
    },
  },
  partnerInsights: sqlPartnerInsights(plannedEachTime(db)), // analytics over date ranges: planned each time
  partnerNetwork: {
    async merchantIds(partnerId) {
      const rows = await db.execute<Row[]>('select business_id from partner_merchants where partner_id = ? order by business_id', [partnerId]);
      return rows.map((r) => String(r.business_id));
    },
    async membershipOf(businessId, options = {}) {
      // the lock is the business row's: a join and a leave of one business run one after the other
      const rows = await db.execute<Row[]>(
        `select b.id as business_id, m.partner_id, m.joined_at from businesses b left join partner_merchants m on m.business_id = b.id where b.id = ?${options.lock ? ' for update of b' : ''}`,
        [businessId],
      );
      const r = rows[0];
      return r && r.partner_id !== null ? { businessId: String(r.business_id), partnerId: String(r.partner_id), joinedAt: asDate(r.joined_at) } : undefined;
    },
    async join(m, byUserId) {
      const done = await unlessDuplicate(db, 'insert into partner_merchants (business_id, partner_id, joined_at) values (?, ?, ?)', [m.businessId, m.partnerId, m.joinedAt]);
      if (done === 'duplicate') return 'already_in_network';
      await db.execute(`insert into partner_consents (business_id, partner_id, kind, at, by_user_id) values (?, ?, 'JOINED', ?, ?)`, [m.businessId, m.partnerId, m.joinedAt, byUserId]);
      return 'joined';
    },
    async leave(businessId, at, byUserId) {
      const rows = await db.execute<Row[]>(
        `with gone as (delete from partner_merchants where business_id = ? returning business_id, partner_id)
         insert into partner_consents (business_id, partner_id, kind, at, by_user_id) select business_id, partner_id, 'LEFT', ?, ? from gone returning id`,
        [businessId, at, byUserId],
      );
      return rows.length > 0;
    },
    consentLog: async (businessId) =>
      (await db.execute<Row[]>('select partner_id, kind, at, by_user_id from partner_consents where business_id = ? order by id', [businessId])).map((r) => ({
        partnerId: String(r.partner_id),
        kind: r.kind as 'JOINED' | 'LEFT',
        at: asDate(r.at),
        byUserId: String(r.by_user_id),
      })),
  },
});
