import type { MikroORM } from '@mikro-orm/postgresql';
import { Rollback, type UnitOfWork } from '../../../application/ports/unit-of-work.js';
import { mikroOrmRepositories } from './repositories.mikro-orm.js';

class RollbackSignal {
  constructor(readonly value: unknown) {}
}

/** One forked EntityManager and one database transaction per unit of work. */
export const mikroOrmUnitOfWork = (orm: MikroORM): UnitOfWork => ({
  async run(work) {
    try {
      return await orm.em.fork().transactional(async (em) => {
        const result = await work(mikroOrmRepositories(em));
        if (result instanceof Rollback) throw new RollbackSignal(result.value);
        return result;
      });
    } catch (e) {
      if (e instanceof RollbackSignal) return e.value as never;
      throw e;
    }
  },
  read: (work) => work(mikroOrmRepositories(orm.em.fork())),
});
