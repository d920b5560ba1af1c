import type { BusinessRepositories, StaffMember } from '../../../application/business/ports.js';
import type { Branch, Business, Membership } from '../../../domain/business.js';
import type { AuthTables } from './auth.in-memory.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, values } from './rows.js';
import { salesOf, type SaleTables } from './sales.in-memory.js';
import type { ExpenseTables } from './expenses.in-memory.js';
import type { ProductTables } from './products.in-memory.js';
import { isSessionRevoked } from './sessions.in-memory.js';

/** The business module's tables. */
export interface BusinessTables {
  businesses: Map<string, Business>;
  branches: Map<string, Branch>;
  memberships: Map<string, Membership>;
}

// Staff rows carry the person (users), the per-request check reads the session, and a branch with
// sales, expenses or stock is referenced: the joins the SQL adapter makes.
type Reads = Pick<AuthTables, 'users' | 'sessions'> & SaleTables & Pick<ExpenseTables, 'expenses'> & Pick<ProductTables, 'productStock' | 'stockMovements'>;
type Tables = BusinessTables & Reads;

const liveBranches = (t: Tables, businessId: string): Branch[] =>
  values(t.branches).filter((b) => b.businessId === businessId && b.archivedAt === null);

const staff = (t: Tables, businessId: string): StaffMember[] =>
  values(t.memberships)
    .filter((m) => m.businessId === businessId)
    .map((m) => {
      const u = t.users.get(m.userId)!;
      return { ...m, firstName: u.firstName, lastName: u.lastName, phone: u.phone, email: u.email };
    });

/** The user's current membership (not DEACTIVATED), else their latest deactivated one. */
const currentMembership = (t: Tables, userId: string) =>
  values(t.memberships)
    .filter((m) => m.userId === userId)
    .sort((a, b) => Number(a.status === 'DEACTIVATED') - Number(b.status === 'DEACTIVATED') || b.updatedAt.getTime() - a.updatedAt.getTime())[0];

/** The business module in memory: businesses, branches and memberships. */
export const inMemoryBusinessModule: InMemoryModule<BusinessTables, BusinessRepositories, Reads> = {
  tables: () => ({ businesses: new Map(), branches: new Map(), memberships: new Map() }),
  repositories: (t) => ({
    businesses: {
      findById: async (id) => (t.businesses.has(id) ? copy(t.businesses.get(id)) : undefined),
      add: async (b) => void t.businesses.set(b.id, copy(b)),
      save: async (b) => void t.businesses.set(b.id, copy(b)),
    },
    branches: {
      findById: async (businessId, id, options = {}) =>
        values(t.branches).find((b) => b.id === id && b.businessId === businessId && (options.includeArchived || b.archivedAt === null)),
      findDefault: async (businessId) => {
        const found = liveBranches(t, businessId).find((b) => b.isDefault);
        if (!found) throw new Error(`business ${businessId} has no default branch`);
        return found;
      },
      list: async (businessId, page) =>
        keysetPageInMemory(liveBranches(t, businessId), page, {
          sortValue: (b, by) => (by === 'name' ? b.name : b.createdAt.toISOString()),
          id: (b) => b.id,
          searchText: (b) => [b.name, b.address, b.phone],
          date: (b) => b.createdAt,
        }),
      add: async (b) => void t.branches.set(b.id, copy(b)),
      save: async (b) => void t.branches.set(b.id, copy(b)),
      isReferenced: async (businessId, id) =>
        values(t.memberships).some((m) => m.businessId === businessId && m.branchId === id) ||
        salesOf(t, businessId).some((x) => x.branchId === id) ||
        values(t.expenses).some((e) => e.businessId === businessId && e.branchId === id) ||
        values(t.stockMovements).some((m) => m.businessId === businessId && m.branchId === id) ||
        values(t.productStock).some((s) => s.businessId === businessId && s.branchId === id),
      holdsStock: async (businessId, id) => values(t.productStock).some((s) => s.businessId === businessId && s.branchId === id && s.quantity > 0),
      remove: async (businessId, id) => {
        if (t.branches.get(id)?.businessId === businessId) t.branches.delete(id);
      },
    },
    memberships: {
      findByUser: async (userId) => currentMembership(t, userId),
      findByUserInSession: async (userId, sessionId) => {
        const membership = currentMembership(t, userId);
        return membership && { membership, sessionRevoked: isSessionRevoked(t, userId, sessionId) };
      },
      findById: async (businessId, id) => {
        const m = t.memberships.get(id);
        return m && m.businessId === businessId ? copy(m) : undefined;
      },
      findStaffMember: async (businessId, id) => staff(t, businessId).find((m) => m.id === id),
      list: async (businessId, page, filter) =>
        keysetPageInMemory(
          staff(t, businessId).filter((m) => !filter.status || m.status === filter.status),
          page,
          {
            sortValue: (m, by) => (by === 'first_name' ? m.firstName : by === 'last_name' ? m.lastName : m.createdAt.toISOString()),
            id: (m) => m.id,
            searchText: (m) => [`${m.firstName} ${m.lastName}`, m.phone, m.email],
            date: (m) => m.createdAt,
          },
        ),
      countActiveOwnersLocked: async (businessId) =>
        values(t.memberships).filter((m) => m.businessId === businessId && m.role === 'BUSINESS_OWNER' && m.status === 'ACTIVE').length,
      moveBranch: async (businessId, from, to) => {
        for (const m of t.memberships.values()) if (m.businessId === businessId && m.branchId === from) m.branchId = to;
      },
      add: async (m) => {
        if (values(t.memberships).some((x) => x.userId === m.userId && x.status !== 'DEACTIVATED')) throw new Error('unique violation: memberships user');
        t.memberships.set(m.id, copy(m));
      },
      save: async (m) => void t.memberships.set(m.id, copy(m)),
    },
  }),
};
