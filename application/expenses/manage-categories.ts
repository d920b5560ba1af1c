import * as E from 'fp-ts/lib/Either.js';
import type { ExpenseCategory } from '../../domain/expense.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { CategorySort, ExpenseRepositories } from './ports.js';

type Categories = Pick<ExpenseRepositories, 'expenseCategories'>;

export type DuplicateCategory = { readonly _tag: 'DuplicateCategory'; readonly name: string };
export type CategoryInUse = { readonly _tag: 'CategoryInUse' };

const duplicate = (name: string) => E.left<DuplicateCategory>({ _tag: 'DuplicateCategory', name });

/** A page of the business's expense categories (the defaults it got at registration and its own). */
export const listExpenseCategories =
  (deps: { uow: UnitOfWork<Categories> }) =>
  (actor: Actor, page: PageRequest<CategorySort>): Promise<Page<ExpenseCategory>> =>
    deps.uow.read((r) => r.expenseCategories.page(actor.businessId, page));

/** Adds a category; its name is unique in the business, ignoring case. */
export const createExpenseCategory =
  (deps: { uow: UnitOfWork<Categories>; clock: Clock; crypto: Crypto }) =>
  (actor: Actor, name: string): Promise<E.Either<DuplicateCategory, ExpenseCategory>> =>
    deps.uow.run(async (r) => {
      const now = deps.clock.now();
      const category: ExpenseCategory = { id: deps.crypto.uuid(), businessId: actor.businessId, name, isDefault: false, createdAt: now, updatedAt: now };
      return (await r.expenseCategories.add(category)) === 'added' ? E.right(category) : duplicate(name);
    });

/** Renames a category (a default one too); its expenses show the new name. */
export const renameExpenseCategory =
  (deps: { uow: UnitOfWork<Categories>; clock: Clock }) =>
  (actor: Actor, categoryId: string, name: string): Promise<E.Either<NotFound | DuplicateCategory, ExpenseCategory>> =>
    deps.uow.run(async (r) => {
      const category = await r.expenseCategories.findById(actor.businessId, categoryId, { lock: 'change' });
      if (!category) return E.left(notFound);
      Object.assign(category, { name, updatedAt: deps.clock.now() });
      return (await r.expenseCategories.save(category)) === 'saved' ? E.right(category) : duplicate(name);
    });

/** Deletes a category no expense is filed under (deleted expenses count: the audit trail keeps them). */
export const deleteExpenseCategory =
  (deps: { uow: UnitOfWork<Categories> }) =>
  (actor: Actor, categoryId: string): Promise<E.Either<NotFound | CategoryInUse, void>> =>
    deps.uow.run(async (r) => {
      const category = await r.expenseCategories.findById(actor.businessId, categoryId, { lock: 'change' });
      if (!category) return E.left(notFound);
      if (await r.expenseCategories.isInUse(actor.businessId, categoryId)) return E.left({ _tag: 'CategoryInUse' as const });
      await r.expenseCategories.remove(actor.businessId, categoryId);
      return E.right(undefined);
    });
