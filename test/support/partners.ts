import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import { createPartner } from '../../application/partners/api-keys.js';
import type { TestApp } from './test-app.js';

/** A partner made as the operator CLI makes it (partner:create), with its first key (every scope). */
export const aPartner = async (app: TestApp, name = 'Kudi Partners') => {
  const r = await createPartner({ uow: app.persistence.uow, clock: app.clock, crypto: nodeCrypto(Buffer.alloc(32)) })(name);
  return { id: r.partner.id, code: r.partner.code, key: r.key, keyId: r.apiKey.id };
};

/** A request with a partner API key. */
export const asPartner = (app: TestApp, key: string, method: string, path: string, body?: unknown) =>
  app.request(method, path, { headers: { 'x-api-key': key }, ...(body !== undefined ? { body } : {}) });
