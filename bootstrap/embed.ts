import { randomBytes } from 'node:crypto';
import type { Clock } from '../application/ports/clock.js';
import type { Crypto } from '../application/ports/crypto.js';
import type { UnitOfWork } from '../application/ports/unit-of-work.js';
import { nodeCrypto } from '../adapters/crypto/node-crypto.js';
import { inMemoryUnitOfWork, type AppRepositories } from './persistence.js';

/**
 * The adapters side of the embedding surface (application/index.ts is the use-case side): every
 * module's repositories in memory, the system clock and Node's crypto with a fresh OTP secret.
 * A program that wants PostgreSQL instead uses `openPostgres` from bootstrap/persistence.ts.
 */
export const inMemoryAdapters = (): { uow: UnitOfWork<AppRepositories>; clock: Clock; crypto: Crypto } => ({
  uow: inMemoryUnitOfWork(),
  clock: { now: () => new Date() },
  crypto: nodeCrypto(randomBytes(32)),
});
