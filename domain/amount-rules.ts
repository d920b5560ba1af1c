/**
 * The rules on money and quantities that every way in (HTTP, an embedding program, a test) meets,
 * one failure per rule (docs/adr/0013): prices and costs are never negative, nor are discounts,
 * amounts paid or tendered and credit limits; a payment is more than zero; a quantity sold is a
 * whole number of at least one. A failure names the fields of the command that broke the rule, in
 * the order they were given; the HTTP adapter spells them the way its request does.
 */
export type NegativePrice = { readonly _tag: 'NegativePrice'; readonly fields: readonly string[] };
export type NegativeAmount = { readonly _tag: 'NegativeAmount'; readonly fields: readonly string[] };
export type AmountNotPositive = { readonly _tag: 'AmountNotPositive'; readonly field: string };
export type QuantityNotPositive = { readonly _tag: 'QuantityNotPositive'; readonly fields: readonly string[] };
/** A stock adjustment that moves nothing would only write an empty ledger row. */
export type ZeroQuantityChange = { readonly _tag: 'ZeroQuantityChange'; readonly field: string };

/** A named value of a command; undefined or null (not given, or cleared) passes every rule. */
export type Named = readonly [field: string, value: number | null | undefined];

const failing = (values: readonly Named[], broken: (v: number) => boolean): string[] =>
  values.flatMap(([field, v]) => (v !== undefined && v !== null && broken(v) ? [field] : []));

/** Prices and costs: 0 (free) or more. */
export const checkPrices = (values: readonly Named[]): NegativePrice | undefined => {
  const fields = failing(values, (v) => v < 0);
  return fields.length > 0 ? { _tag: 'NegativePrice', fields } : undefined;
};

/** Discounts, amounts paid or tendered, credit limits: 0 or more. */
export const checkAmounts = (values: readonly Named[]): NegativeAmount | undefined => {
  const fields = failing(values, (v) => v < 0);
  return fields.length > 0 ? { _tag: 'NegativeAmount', fields } : undefined;
};

/** A payment moves money: more than zero. */
export const checkPayment = (field: string, amount: number): AmountNotPositive | undefined =>
  amount > 0 ? undefined : { _tag: 'AmountNotPositive', field };

/** Quantities sold: whole numbers of at least one. */
export const checkQuantities = (values: readonly Named[]): QuantityNotPositive | undefined => {
  const fields = failing(values, (v) => !Number.isInteger(v) || v < 1);
  return fields.length > 0 ? { _tag: 'QuantityNotPositive', fields } : undefined;
};

/** A stock change: a whole number other than zero. */
export const checkQuantityChange = (field: string, change: number): ZeroQuantityChange | undefined =>
  Number.isInteger(change) && change !== 0 ? undefined : { _tag: 'ZeroQuantityChange', field };
