// The offline-sync module's port: client-made ids claimed once, with what they were made with (docs/adr/0034).

/** The records a device may create offline under an id it generated itself. */
export const CLIENT_RECORD_KINDS = ['SALE', 'CUSTOMER', 'CREDIT_PAYMENT', 'EXPENSE', 'STOCK_ADJUSTMENT'] as const;
export type ClientRecordKind = (typeof CLIENT_RECORD_KINDS)[number];

/**
 * `claimed`: the id is new and now this request's (held until its transaction ends: a concurrent
 * request with the same id waits, then sees it); `same`: a record of this business and kind was made
 * under it from the same content; `different`: the id is taken otherwise (other content, kind or business,
 * or a record the server numbered itself).
 */
export type ClientIdClaim = 'claimed' | 'same' | 'different';

export interface ClientIdClaimRequest {
  readonly businessId: string;
  readonly kind: ClientRecordKind;
  readonly id: string;
  /** A fingerprint of the content the record is made from: equal content, equal fingerprint. */
  readonly fingerprint: string;
  /** When the device says it made the record (its own clock). */
  readonly clientCreatedAt: Date | null;
  readonly at: Date;
}

/** Client ids, one row each, written in the transaction that creates their record. */
export interface ClientIdRegistry {
  claim(request: ClientIdClaimRequest): Promise<ClientIdClaim>;
  /** The device's time of a record made under a client id, if it was. */
  clientCreatedAt(businessId: string, id: string): Promise<Date | null>;
}

export interface SyncRepositories {
  readonly clientIds: ClientIdRegistry;
}
