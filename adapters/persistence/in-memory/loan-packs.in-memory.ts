import type { LoanPack, LoanPackPayment, LoanPackRepositories } from '../../../application/loan-packs/ports.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, values } from './rows.js';

/** The loan-packs module's tables: packs by id, and the payment that settled each (by pack id). */
export interface LoanPackTables {
  loanPacks: Map<string, LoanPack>;
  loanPackPayments: Map<string, LoanPackPayment>;
}

/** Loan packs in memory: the same rules as the table's checks and unique indexes. */
export const inMemoryLoanPacksModule: InMemoryModule<LoanPackTables, LoanPackRepositories> = {
  tables: () => ({ loanPacks: new Map(), loanPackPayments: new Map() }),
  repositories: (t) => {
    const byReference = (reference: string) => values(t.loanPacks).find((p) => p.reference === reference);
    const own = (businessId: string, reference: string) => {
      const p = byReference(reference);
      return p && p.businessId === businessId ? p : undefined;
    };
    return {
      loanPacks: {
        add: async (p) => {
          if (byReference(p.reference)) return 'duplicate_reference';
          t.loanPacks.set(p.id, copy(p));
          return 'added';
        },
        findByReference: async (businessId, reference) => own(businessId, reference),
        findAnyByReference: async (reference) => byReference(reference),
        list: async (businessId, page) =>
          keysetPageInMemory(values(t.loanPacks).filter((p) => p.businessId === businessId), page, {
            sortValue: (p) => p.createdAt.toISOString(),
            id: (p) => p.id,
            searchText: (p) => [p.reference, p.lenderName, p.purpose],
            date: (p) => p.createdAt,
          }),
        saveCheckout: async (businessId, reference, checkout) => {
          const p = own(businessId, reference);
          if (!p) return checkout;
          if (p.checkout) return p.checkout;
          t.loanPacks.set(p.id, { ...p, checkout: copy(checkout) });
          return checkout;
        },
        markPaid: async (y) => {
          const p = own(y.businessId, y.reference);
          if (!p || p.status !== 'PENDING_PAYMENT') return 'already';
          t.loanPacks.set(p.id, { ...p, status: 'READY', paidAt: y.paidAt });
          t.loanPackPayments.set(p.id, copy(y));
          return 'paid';
        },
        paymentOf: async (businessId, reference) => {
          const p = own(businessId, reference);
          const y = p && t.loanPackPayments.get(p.id);
          return y ? copy(y) : undefined;
        },
      },
    };
  },
};
