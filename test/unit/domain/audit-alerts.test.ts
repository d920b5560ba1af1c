import { expect } from 'chai';
import { kobo } from '../../../domain/money.js';
import { DEFAULT_PREFERENCES, isAuditAlertDue, type AuditAlertPreferences } from '../../../domain/notification.js';
import { auditAlertMessage, auditAlertText } from '../../../domain/notification-texts.js';

// The owner's alerts about the audit log (docs/adr/0071): which changes pass which threshold, and what the alert says.

const on: AuditAlertPreferences = { enabled: true, channel: 'SMS', saleVoidedOver: kobo(100_000), saleDiscountedOver: kobo(0), stockAdjustedOver: 10 };
const voided = (amount: number) => ({ action: 'sale.voided' as const, amount: kobo(amount), quantity: null });
const discounted = (amount: number) => ({ action: 'sale.discounted' as const, amount: kobo(amount), quantity: null });
const adjusted = (quantity: number) => ({ action: 'stock.adjusted' as const, amount: null, quantity });

describe('audit alerts', () => {
  it('are off until the owner turns them on, and each action only with its threshold set', () => {
    expect(DEFAULT_PREFERENCES.auditAlerts).to.deep.equal({ enabled: false, channel: 'SMS', saleVoidedOver: null, saleDiscountedOver: null, stockAdjustedOver: null });
    expect(isAuditAlertDue({ ...on, enabled: false }, voided(1_000_000))).to.equal(false);
    expect(isAuditAlertDue({ ...on, saleVoidedOver: null }, voided(1_000_000))).to.equal(false);
    expect(isAuditAlertDue({ ...on, stockAdjustedOver: null }, adjusted(-500))).to.equal(false);
  });

  it('fire strictly above the threshold: a void of more than it, any discount over 0, an adjustment of more units either way', () => {
    expect([voided(100_000), voided(100_001)].map((c) => isAuditAlertDue(on, c))).to.deep.equal([false, true]);
    expect([discounted(0), discounted(1)].map((c) => isAuditAlertDue(on, c))).to.deep.equal([false, true]);
    expect([adjusted(10), adjusted(-10), adjusted(11), adjusted(-11)].map((c) => isAuditAlertDue(on, c))).to.deep.equal([false, false, true, true]);
  });

  it('say who did what, in naira, under the business name', () => {
    const base = { actorName: 'Bola Ade', subjectLabel: 'RCP-000042' };
    expect(auditAlertMessage({ ...base, ...voided(1_250_050) })).to.equal('Bola Ade voided sale RCP-000042 (₦12,500.50). See the audit log.');
    expect(auditAlertMessage({ ...base, ...discounted(30_000) })).to.equal('Bola Ade gave ₦300.00 off on sale RCP-000042. See the audit log.');
    expect(auditAlertMessage({ actorName: null, subjectLabel: 'Rice 50kg', ...adjusted(-12) })).to.equal('Someone adjusted the stock of Rice 50kg down by 12. See the audit log.');
    expect(auditAlertText({ businessName: 'Ada Stores', message: 'x' })).to.deep.equal({ text: 'Ada Stores: x', params: ['Ada Stores', 'x'], subject: 'Ada Stores: audit alert' });
  });
});
