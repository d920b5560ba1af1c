import type { CashFlowDay, ReportExportRepositories, SaleExportRow } from '../../../application/report-exports/ports.js';
import type { ExpenseTables } from './expenses.in-memory.js';
import type { InvoiceTables } from './invoices.in-memory.js';
import { lagosDate } from '../../../domain/lagos-time.js';
import { kobo, type KoboSum } from '../../../domain/money.js';
import type { AuthTables } from './auth.in-memory.js';
import type { CustomerTables } from './customers.in-memory.js';
import type { InMemoryModule } from './in-memory-store.js';
import { salesOf, type SaleTables } from './sales.in-memory.js';
import { rowKey } from './rows.js';
import { returnsOf, type ReturnTables } from './returns.in-memory.js';

// The exports own no table: they read the sales and their returns, their cashiers and customers, the credit ledger, invoice payments and expenses.
type Reads = SaleTables & ReturnTables & Pick<AuthTables, 'users'> & Pick<CustomerTables, 'customers' | 'creditEntries'> & Pick<ExpenseTables, 'expenses'> & Pick<InvoiceTables, 'invoicePayments'>;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/** The report-exports module in memory: the same rows its SQL selects, computed in JS. */
export const inMemoryReportExportsModule: InMemoryModule<{}, ReportExportRepositories, Reads> = {
  tables: () => ({}),
  repositories: (t) => ({
    reportExports: {
      salesBatch: async (businessId, { from, to }, after, limit) =>
        salesOf(t, businessId)
          .filter((s) => s.createdAt >= from && s.createdAt < to)
          .filter((s) => !after || s.createdAt > after.createdAt || (s.createdAt.getTime() === after.createdAt.getTime() && s.id > after.id))
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
          .slice(0, limit)
          .map((s): SaleExportRow => {
            const user = t.users.get(s.createdBy);
            const customer = s.customerId ? t.customers.get(rowKey(s.businessId, s.customerId)) : undefined;
            return {
              id: s.id,
              receiptNumber: s.receiptNumber,
              createdAt: s.createdAt,
              cashier: user ? `${user.firstName} ${user.lastName}`.trim() : '',
              customer: customer?.name ?? null,
              paymentMethod: s.paymentMethod,
              payments: s.payments,
              status: s.status,
              subtotal: s.subtotal,
              discount: s.discount,
              total: s.total,
              vatTotal: s.vat?.total ?? kobo(0),
              amountPaid: s.amountPaid,
              balanceDue: s.balanceDue,
              outstanding: s.creditOutstanding,
              returned: kobo(returnsOf(t, businessId).filter((x) => x.saleId === s.id).reduce((n, x) => n + x.amount, 0)),
            };
          }),
      cashFlow: async (businessId, start, end) => {
        const days = new Map<string, Record<string, KoboSum>>();
        for (let d = start; d <= end; d = nextDay(d)) days.set(d, {});
        const add = (day: string, field: string, amount: number) => {
          const row = days.get(day);
          if (row) row[field] = (row[field] ?? 0n) + BigInt(amount);
        };
        for (const s of salesOf(t, businessId)) {
          if (s.status === 'VOIDED') continue;
          const day = lagosDate(s.createdAt);
          for (const p of s.payments) {
            if (p.method === 'CREDIT') continue; // owed, not money in
            add(day, 'salesPaid', p.amount);
            add(day, { CASH: 'inCash', TRANSFER: 'inTransfer', CARD: 'inCard', POS: 'inPos' }[p.method], p.amount);
          }
        }
        for (const e of t.creditEntries.values()) {
          if (e.businessId !== businessId || e.kind !== 'PAYMENT') continue;
          const day = lagosDate(e.createdAt);
          add(day, 'creditCollected', -e.amount);
          add(day, e.method === 'CASH' ? 'inCash' : e.method === 'TRANSFER' ? 'inTransfer' : e.method === 'CARD' ? 'inCard' : e.method === 'POS' ? 'inPos' : 'inOther', -e.amount);
        }
        // invoice payments on their paid_at day (docs/adr/0074); their INVOICE_PAYMENT ledger entries are skipped above
        for (const p of t.invoicePayments.values()) {
          if (p.businessId !== businessId) continue;
          const day = lagosDate(p.paidAt);
          add(day, 'invoicesPaid', p.amount);
          add(day, { CASH: 'inCash', TRANSFER: 'inTransfer', CARD: 'inCard', POS: 'inPos', ONLINE: 'inOther' }[p.method], p.amount);
        }
        for (const e of t.expenses.values()) {
          if (e.businessId !== businessId || e.deletedAt !== null) continue;
          add(e.spentOn, { CASH: 'outCash', TRANSFER: 'outTransfer', CARD: 'outCard', POS: 'outPos', OTHER: 'outOther' }[e.paymentMethod], e.amount);
        }
        for (const x of returnsOf(t, businessId)) {
          if (x.refundMethod === 'CREDIT_NOTE') continue; // kept on account: no money moved
          const day = lagosDate(x.createdAt);
          add(day, 'refunds', x.refundAmount);
          add(day, { CASH: 'outCash', TRANSFER: 'outTransfer', CARD: 'outCard', POS: 'outPos' }[x.refundMethod], x.refundAmount);
        }
        let runningBalance = 0n;
        return [...days].map(([day, f]): CashFlowDay => {
          const v = (k: string) => f[k] ?? 0n;
          const moneyIn = v('salesPaid') + v('creditCollected') + v('invoicesPaid');
          const moneyOut = v('outCash') + v('outTransfer') + v('outCard') + v('outPos') + v('outOther'); // refunds inside them
          runningBalance += moneyIn - moneyOut;
          return {
            day,
            salesPaid: v('salesPaid'),
            creditCollected: v('creditCollected'),
            invoicesPaid: v('invoicesPaid'),
            inCash: v('inCash'),
            inTransfer: v('inTransfer'),
            inCard: v('inCard'),
            inPos: v('inPos'),
            inOther: v('inOther'),
            moneyIn,
            refunds: v('refunds'),
            outCash: v('outCash'),
            outTransfer: v('outTransfer'),
            outCard: v('outCard'),
            outPos: v('outPos'),
            outOther: v('outOther'),
            moneyOut,
            net: moneyIn - moneyOut,
            runningBalance,
          };
        });
      },
    },
  }),
};
