import * as E from 'fp-ts/lib/Either.js';
import { checkCreditLimit, type Customer } from '../../domain/customer.js';
import type { NegativeAmount } from '../../domain/amount-rules.js';
import { kobo, type Kobo } from '../../domain/money.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import { customerCreated } from '../../domain/events.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { CustomerRepositories, CustomerSort } from './ports.js';
import type { SyncRepositories } from '../sync/ports.js';
import { underClientId, type ClientIdConflict, type ClientMade, type Replayed } from '../sync/client-id.js';


type Customers = Pick<CustomerRepositories, 'customers'>;

export type DuplicatePhone = { readonly _tag: 'DuplicatePhone' };

export interface CustomerFields {
  readonly name: string;
  readonly phone?: string | null;
  readonly email?: string | null;
  readonly address?: string | null;
  readonly notes?: string | null;
  readonly creditLimit?: Kobo | null;
  readonly notificationsOptOut?: boolean;
}

/** Adds a customer (phone unique per business, credit limit not negative); they start owing nothing. */
export const createCustomer =
  (deps: { uow: UnitOfWork<Customers & EventRepositories & SyncRepositories>; clock: Clock; crypto: Crypto }) =>
  async (actor: Actor, fields: CustomerFields & ClientMade): Promise<E.Either<NegativeAmount | DuplicatePhone | ClientIdConflict, Replayed<Customer>>> => {
    const broken = checkCreditLimit(fields.creditLimit);
    if (broken) return E.left(broken);
    return deps.uow.run(async (r) => {
      const now = deps.clock.now();
      const replay = (id: string) => r.customers.findById(actor.businessId, id);
      return underClientId<DuplicatePhone, Customer>(deps, r, { businessId: actor.businessId, kind: 'CUSTOMER', made: fields, content: fields, at: now }, replay, async (clientId) => {
      const customer: Customer = {
        id: clientId ?? deps.crypto.uuid(),
        businessId: actor.businessId,
        name: fields.name,
        phone: fields.phone ?? null,
        email: fields.email ?? null,
        address: fields.address ?? null,
        notes: fields.notes ?? null,
        creditLimit: fields.creditLimit ?? null,
        creditBalance: kobo(0),
        notificationsOptOut: fields.notificationsOptOut ?? false,
        createdAt: now,
        updatedAt: now,
      };
      if ((await r.customers.add(customer)) === 'duplicate_phone') return E.left({ _tag: 'DuplicatePhone' as const });
      await r.events.record(now, customerCreated(customer));
      return E.right(customer);
      });
    });
  };

/** Updates the fields present (null clears an optional one). The balance is not a field: the ledger moves it. */
export const updateCustomer =
  (deps: { uow: UnitOfWork<Customers>; clock: Clock }) =>
  async (actor: Actor, customerId: string, changes: Partial<CustomerFields>): Promise<E.Either<NegativeAmount | NotFound | DuplicatePhone, Customer>> => {
    const broken = checkCreditLimit(changes.creditLimit);
    if (broken) return E.left(broken);
    return deps.uow.run(async (r) => {
      const customer = await r.customers.findById(actor.businessId, customerId, { forUpdate: true });
      if (!customer) return E.left(notFound);
      for (const [k, v] of Object.entries(changes)) if (v !== undefined) (customer as unknown as Record<string, unknown>)[k] = v;
      customer.updatedAt = deps.clock.now();
      return (await r.customers.save(customer)) === 'saved' ? E.right(customer) : E.left({ _tag: 'DuplicatePhone' as const });
    });
  };

export const getCustomer =
  (deps: { uow: UnitOfWork<Customers> }) =>
  async (actor: Actor, customerId: string): Promise<E.Either<NotFound, Customer>> => {
    const c = await deps.uow.read((r) => r.customers.findById(actor.businessId, customerId));
    return c ? E.right(c) : E.left(notFound);
  };

export const listCustomers =
  (deps: { uow: UnitOfWork<Customers> }) =>
  (actor: Actor, page: PageRequest<CustomerSort>, filter: { hasBalance?: boolean }): Promise<Page<Customer>> =>
    deps.uow.read((r) => r.customers.list(actor.businessId, page, filter));
