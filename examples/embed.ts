/**
 * Runs a day's first sale without HTTP: registers a shop, signs its owner in, stocks a product and
 * sells two, all on the in-memory adapters, through the public surface alone
 * (application/index.ts for the use cases, bootstrap/embed.ts for the adapters).
 * `npx tsx examples/embed.ts` prints the receipt; test/unit/application/embed.test.ts runs it.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  createProduct,
  getReceipt,
  nairaToKobo,
  normalisePhone,
  phoneIdentifier,
  recordSale,
  register,
  verifySignInCode,
  type Actor,
  type OutgoingMessage,
} from '../application/index.js';
import { inMemoryAdapters } from '../bootstrap/embed.js';

const must = <L, R>(result: E.Either<L, R>, what: string): R => {
  if (E.isLeft(result)) throw new Error(`${what} failed: ${JSON.stringify(result.left)}`);
  return result.right;
};
const naira = (amount: number) => {
  const k = nairaToKobo(amount);
  if (!k.ok) throw new Error(`not an amount of naira: ${amount}`);
  return k.value;
};

export const runEmbeddedSale = async () => {
  const sent: OutgoingMessage[] = [];
  let signedIn: Actor | undefined;
  const deps = {
    ...inMemoryAdapters({ send: async (m: OutgoingMessage) => (sent.push(m), {}) }),
    // an embedder needs the signed-in actor, not a JWT
    tokens: { issueAccessToken: async (actor: Actor) => ((signedIn = actor), { token: 'embedded', expiresIn: 3600 }) },
  };

  const phone = phoneIdentifier(normalisePhone('08031234567')!);
  must(await register(deps)({ identifier: phone, firstName: 'Ada', lastName: 'Okafor', businessName: 'Ada Stores' }), 'register');
  const code = /\b(\d{6})\b/.exec(sent.at(-1)?.text ?? '')?.[1] ?? '';
  must(await verifySignInCode(deps)(phone, code), 'sign-in');
  const owner = signedIn!;

  const milk = must(await createProduct(deps)(owner, { name: 'Peak Milk 400g', price: naira(1500), quantity: 10 }), 'create product');
  const { sale } = must(
    await recordSale(deps)(owner, { items: [{ productId: milk.id, quantity: 2 }], paymentMethod: 'CASH', amountTendered: naira(5000) }),
    'sale',
  );
  return must(await getReceipt(deps)(owner, { saleId: sale.id }), 'receipt');
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const receipt = await runEmbeddedSale();
  console.log(JSON.stringify(receipt, null, 2));
}
