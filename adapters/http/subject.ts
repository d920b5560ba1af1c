/** What a partner route acts on (names the resource of a 404); its not-found texts are in failures/partners.ts. */
export type PartnerSubject = 'api key' | 'partner network' | 'merchant' | 'partner' | 'webhook' | 'webhook delivery';

/**
 * What the route acts on. It names the resource of a 404, and picks the wording where one failure
 * reads differently by operation (a sale's void versus a product's adjustment, logout versus refresh).
 */
export type Subject =
  | 'sale'
  | 'return'
  | 'conflict'
  | 'receipt'
  | 'customer'
  | 'product'
  | 'stock adjustment'
  | 'stock transfer'
  | 'staff member'
  | 'business'
  | 'branch'
  | 'session'
  | 'sign-in'
  | 'signed-in user'
  | 'expense'
  | 'expense category'
  | 'report'
  | 'notification'
  | 'loan pack'
  | 'invoice'
  | PartnerSubject;

