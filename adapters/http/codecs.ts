import * as t from 'io-ts';
import { MAX_PAYMENT_TERMS_DAYS, NUBAN_PATTERN } from '../../domain/invoice.js';
import { isEmail, normaliseEmail } from '../../domain/identifier.js';
import { normalisePhone, type E164Phone } from '../../domain/phone.js';
import { koboToNaira, MAX_KOBO, nairaToKobo, type Kobo } from '../../domain/money.js';
import { basisPointsToPercent, percentToBasisPoints, TIN_PATTERN } from '../../domain/vat.js';

/** A JSON Schema fragment (OpenAPI 3.1 dialect). */
export type JsonSchema = Record<string, unknown>;

/** A codec that knows its own JSON Schema, so the OpenAPI document is built from the codecs. */
export class Documented<A, O = A> extends t.Type<A, O, unknown> {
  constructor(
    name: string,
    readonly schema: JsonSchema,
    validate: t.Validate<unknown, A>,
    encode: (a: A) => O = (a) => a as unknown as O,
  ) {
    super(name, (u): u is A => validate(u, [])._tag === 'Right', validate, encode);
  }
}

/** An object whose unknown keys are refused (API-DECISIONS: typos surface at once, read-only fields are unknown). */
export class StrictObject<R extends t.Props, O extends t.Props> extends t.Type<
  t.TypeOf<t.TypeC<R>> & Partial<t.TypeOf<t.TypeC<O>>>,
  unknown,
  unknown
> {
  readonly _tag = 'StrictObject' as const;
  constructor(name: string, readonly required: R, readonly optional: O) {
    const validate: t.Validate<unknown, t.TypeOf<t.TypeC<R>> & Partial<t.TypeOf<t.TypeC<O>>>> = (u, c) => {
        if (typeof u !== 'object' || u === null || Array.isArray(u)) return t.failure(u, c, 'must be a JSON object');
        const input = u as Record<string, unknown>;
        const errors: t.Errors = [];
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(input)) {
          // own keys only: `constructor` or `toString` are on every object's prototype, not fields
          if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) {
            errors.push({ value: input[key], context: [...c, { key, type: t.never, actual: input[key] }], message: 'is not a known field' });
          }
        }
        const check = (key: string, codec: t.Mixed, isRequired: boolean) => {
          const value = input[key];
          const context = [...c, { key, type: codec, actual: value }];
          if (value === undefined) {
            if (isRequired) errors.push({ value, context, message: 'is required' });
            return;
          }
          const result = codec.validate(value, context);
          if (result._tag === 'Left') errors.push(...result.left);
          else out[key] = result.right;
        };
        for (const [key, codec] of Object.entries(required)) check(key, codec, true);
        for (const [key, codec] of Object.entries(optional)) check(key, codec, false);
        return errors.length > 0 ? t.failures(errors) : t.success(out as never);
    };
    super(name, (u): u is t.TypeOf<t.TypeC<R>> & Partial<t.TypeOf<t.TypeC<O>>> => validate(u, [])._tag === 'Right', validate, t.identity);
  }
}

export const object = <R extends t.Props, O extends t.Props = {}>(name: string, required: R, optional?: O) =>
  new StrictObject<R, O>(name, required, (optional ?? {}) as O);

/** Trimmed text of bounded length, without NUL characters (PostgreSQL text cannot hold them). */
export const text = (min: number, max: number, description?: string) =>
  new Documented<string>(
    `text of ${min} to ${max} characters`,
    { type: 'string', minLength: min, maxLength: max, pattern: '^[^\\u0000]*$', ...(description ? { description } : {}) },
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, 'must be a string');
      if (u.includes('\u0000')) return t.failure(u, c, 'must not contain a NUL character (\\u0000)');
      const s = u.trim();
      return s.length < min || s.length > max ? t.failure(u, c, `must be ${min} to ${max} characters long`) : t.success(s);
    },
  );

export const phone = new Documented<E164Phone>(
  'phone',
  {
    type: 'string',
    minLength: 3,
    maxLength: 32,
    description: 'E.164 phone number; a Nigerian local number (08031234567) is accepted and normalised to +2348031234567',
    examples: ['+2348031234567'],
  },
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, 'must be a string');
    if (u.length > 32) return t.failure(u, c, 'must be a valid phone number in E.164 form, e.g. +2348031234567');
    const normalised = normalisePhone(u);
    return normalised ? t.success(normalised) : t.failure(u, c, 'must be a valid phone number in E.164 form, e.g. +2348031234567');
  },
);

export const email = new Documented<string>(
  'email',
  { type: 'string', format: 'email', maxLength: 254, examples: ['ada@example.com'] },
  (u, c) =>
    typeof u === 'string' && !u.includes('\u0000') && isEmail(u) ? t.success(normaliseEmail(u)) : t.failure(u, c, 'must be a valid e-mail address'),
);

export const otpCode = new Documented<string>(
  'otp',
  { type: 'string', pattern: '^[0-9]{6}$', description: 'the 6-digit code that was sent', examples: ['123456'] },
  (u, c) => (typeof u === 'string' && /^\d{6}$/.test(u) ? t.success(u) : t.failure(u, c, 'must be a string of 6 digits')),
);

export const opaqueToken = new Documented<string>('token', { type: 'string', minLength: 1, maxLength: 512 }, (u, c) =>
  typeof u === 'string' && u.length > 0 && u.length <= 512 ? t.success(u) : t.failure(u, c, 'must be a non-empty string'),
);

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** io-ts errors as the `{field, message}` list of a 400. */
export const fieldErrors = (errors: t.Errors): FieldError[] => {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of errors) {
    const path = e.context
      .map((c) => c.key)
      .filter((k) => k !== '')
      .join('.');
    const field = path === '' ? '(body)' : path;
    const message = e.message ?? `must be ${e.context[e.context.length - 1]?.type.name ?? 'valid'}`;
    const key = `${field}\n${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ field, message });
    }
  }
  return out;
};

// ---- response shapes (documentation only: they describe what handlers return) ----

/**
 * A name in PascalCase (`Product`, `SalePage`) makes a schema a named component: it carries the name as
 * its `title`, and the document lists it once under `components.schemas` and refers to it by `$ref`.
 */
const COMPONENT_NAME = /^[A-Z][A-Za-z0-9]*$/;
export const named = (name: string, schema: JsonSchema): JsonSchema => (COMPONENT_NAME.test(name) ? { ...schema, title: name } : schema);

export const doc = <A = unknown>(name: string, schema: JsonSchema) =>
  new Documented<A>(name, named(name, schema), (u) => t.success(u as A));

export const dateTime = doc('date-time', { type: 'string', format: 'date-time', examples: ['2026-11-22T14:00:00.000Z'] });
export const uuid = doc('uuid', { type: 'string', format: 'uuid' });
export const str = doc('string', { type: 'string' });
export const nullableStr = doc('string or null', { type: ['string', 'null'] });
export const int = doc('integer', { type: 'integer' });
export const bool = doc('boolean', { type: 'boolean' });

/** Describes a response object; every property of `props` is present, those of `optional` only sometimes. */
export const shape = (
  name: string,
  props: Record<string, t.Mixed>,
  descriptions: Record<string, string> = {},
  optional: Record<string, t.Mixed> = {},
) =>
  doc(name, {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries({ ...props, ...optional }).map(([k, v]) => {
        // a field's own words first, then what its type says (e.g. how money is written)
        const schema = jsonSchemaOf(v);
        const own = descriptions[k];
        return [k, { ...schema, ...(own ? { description: typeof schema.description === 'string' ? `${own} (${schema.description})` : own } : {}) }];
      }),
    ),
    required: Object.keys(props),
  });

/** JSON Schema of a codec built from the pieces above (and a few io-ts primitives). */
export const jsonSchemaOf = (codec: t.Mixed): JsonSchema => {
  if (codec instanceof Documented) return codec.schema;
  if (codec instanceof StrictObject) {
    const props = { ...codec.required, ...codec.optional } as t.Props;
    return named(codec.name, {
      type: 'object',
      properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, jsonSchemaOf(v)])),
      required: Object.keys(codec.required),
      additionalProperties: false,
    });
  }
  if (codec instanceof t.KeyofType) return { type: 'string', enum: Object.keys(codec.keys) };
  if (codec instanceof t.LiteralType) return { const: codec.value };
  if (codec instanceof t.ArrayType) return { type: 'array', items: jsonSchemaOf(codec.type) };
  if (codec instanceof t.UnionType) return { oneOf: (codec.types as t.Mixed[]).map(jsonSchemaOf) };
  if (codec instanceof t.StringType) return { type: 'string' };
  if (codec instanceof t.NumberType) return { type: 'number' };
  if (codec instanceof t.BooleanType) return { type: 'boolean' };
  throw new Error(`no JSON Schema for codec ${codec.name}`);
};

/**
 * A strict object that takes exactly one of two of its optional fields, documented as a `oneOf` of the two shapes:
 * each requires its field and refuses the other (`false`, which openapi-typescript types `never`), so a generated
 * client cannot send both or neither. It decodes as `codec`; the route checks the pair (its error names the fields).
 */
export const exactlyOneOf = <R extends t.Props, O extends t.Props>(codec: StrictObject<R, O>, a: keyof O & string, b: keyof O & string) => {
  const { title, ...whole } = jsonSchemaOf(codec) as { title?: string; properties: Record<string, unknown>; required: string[] };
  const only = (field: string, other: string) => ({ ...whole, properties: { ...whole.properties, [other]: false }, required: [...whole.required, field] });
  return new Documented<t.TypeOf<typeof codec>>(codec.name, { ...(title ? { title } : {}), type: 'object', oneOf: [only(a, b), only(b, a)] }, (u, c) => codec.validate(u, c));
};

/** The codec, or null (clears an optional field on update). */
export const orNull = <A, O>(codec: Documented<A, O>) =>
  new Documented<A | null, O | null>(`${codec.name} or null`, { oneOf: [codec.schema, { type: 'null' }] }, (u, c) =>
    u === null ? t.success(null) : codec.validate(u, c),
    (a) => (a === null ? null : codec.encode(a)),
  );

export const enumOf = <V extends string>(name: string, options: readonly V[], description?: string) =>
  new Documented<V>(name, { type: 'string', enum: [...options], ...(description ? { description } : {}) }, (u, c) =>
    typeof u === 'string' && (options as readonly string[]).includes(u) ? t.success(u as V) : t.failure(u, c, `must be one of ${options.join(', ')}`),
  );

export const uuidInput = new Documented<string>('uuid', { type: 'string', format: 'uuid' }, (u, c) =>
  typeof u === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(u)
    ? t.success(u.toLowerCase())
    : t.failure(u, c, 'must be a UUID'),
);

export const httpsUrl = new Documented<string>('url', { type: 'string', format: 'uri', maxLength: 2048 }, (u, c) => {
  if (typeof u !== 'string' || u.length > 2048 || u.includes('\u0000')) return t.failure(u, c, 'must be an http(s) URL');
  try {
    const url = new URL(u);
    return url.protocol === 'https:' || url.protocol === 'http:' ? t.success(url.toString()) : t.failure(u, c, 'must be an http(s) URL');
  } catch {
    return t.failure(u, c, 'must be an http(s) URL');
  }
});

/**
 * Money at the JSON edge: a number of naira with at most 2 decimals, read into integer kobo.
 * More decimals or more than 1,000,000,000,000.00 either way is 400; the sign is a business rule, answered
 * 422 with the rule's code by the use case, so the document states the rule's range (`minimum: 0`, or
 * `exclusiveMinimum: 0` for `positiveMoney`) while the parser takes the sign through.
 */
const moneyCodec = (name: string, lower: JsonSchema) => new Documented<Kobo, number>(
  name,
  { type: 'number', ...lower, maximum: MAX_KOBO / 100, description: 'naira, at most 2 decimals', examples: [1500.5] },
  (u, c) => {
    if (typeof u !== 'number') return t.failure(u, c, 'must be a number of naira');
    const r = nairaToKobo(u);
    if (r.ok) return t.success(r.value);
    return t.failure(u, c, r.reason === 'TOO_MANY_DECIMALS' ? 'must have at most 2 decimals' : r.reason === 'TOO_LARGE' ? 'must be at most 1000000000000.00' : 'must be a number of naira');
  },
  koboToNaira,
);

/** Naira of 0 or more (prices, discounts, amounts paid, credit limits). */
export const money = moneyCodec('naira', { minimum: 0 });
/** Naira above 0 (a payment). */
export const positiveMoney = moneyCodec('naira above 0', { exclusiveMinimum: 0 });

/** A whole number from 1 to `max` (a quantity sold). */
export const positiveInteger = (max: number) =>
  new Documented<number>('positive integer', { type: 'integer', minimum: 1, maximum: max }, (u, c) =>
    typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= max ? t.success(u) : t.failure(u, c, `must be a whole number from 1 to ${max}`),
  );

/** An integer within ±limit (quantities, thresholds). */
export const integer = (limit = 1_000_000_000) =>
  new Documented<number>('integer', { type: 'integer', minimum: -limit, maximum: limit }, (u, c) =>
    typeof u === 'number' && Number.isInteger(u) && Math.abs(u) <= limit ? t.success(u) : t.failure(u, c, 'must be a whole number'),
  );

/** A whole number other than zero (a stock movement). */
export const nonZeroInteger = new Documented<number>('non-zero integer', { type: 'integer', minimum: -1_000_000_000, maximum: 1_000_000_000, not: { const: 0 } }, (u, c) =>
  typeof u === 'number' && Number.isInteger(u) && Math.abs(u) <= 1_000_000_000 && u !== 0 ? t.success(u) : t.failure(u, c, 'must be a whole number other than zero'),
);

/** A JSON boolean in a request body. */
export const booleanInput = new Documented<boolean>('boolean', { type: 'boolean' }, (u, c) => (typeof u === 'boolean' ? t.success(u) : t.failure(u, c, 'must be true or false')));

/** A query-string boolean: true or false. */
export const queryFlag = new Documented<boolean>('true or false', { type: 'string', enum: ['true', 'false'] }, (u, c) =>
  u === 'true' ? t.success(true) : u === 'false' ? t.success(false) : t.failure(u, c, 'must be true or false'),
);

/**
 * A VAT rate at the JSON edge: a percentage with at most 2 decimals from 0 to 100 (7.5), read into basis
 * points (750). Anything else is 400: a rate outside 0..100 % is not a rate (docs/adr/0054).
 */
export const vatRatePercent = new Documented<number, number>(
  'VAT rate',
  { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.01, description: 'a percentage with at most 2 decimals, 0 to 100', examples: [7.5] },
  (u, c) => {
    const bp = typeof u === 'number' ? percentToBasisPoints(u) : undefined;
    return bp === undefined ? t.failure(u, c, 'must be a percentage from 0 to 100 with at most 2 decimals, e.g. 7.5') : t.success(bp);
  },
  basisPointsToPercent,
);

/** A Nigerian TIN: 12345678-0001 (FIRS) or 1234567890 (JTB), docs/adr/0054. */
export const tinInput = new Documented<string>(
  'TIN',
  { type: 'string', pattern: TIN_PATTERN.source, maxLength: 13, description: 'Nigerian Tax Identification Number: 8 digits, a hyphen and 4 digits (FIRS), or 10 digits (JTB)', examples: ['12345678-0001'] },
  (u, c) => (typeof u === 'string' && TIN_PATTERN.test(u.trim()) ? t.success(u.trim()) : t.failure(u, c, 'must be a TIN: 8 digits, a hyphen and 4 digits (12345678-0001), or 10 digits')),
);

/** Days from an invoice's issue to its due date: a whole number from 0 to 365 (docs/adr/0072). */
export const paymentTermsDays = new Documented<number>('payment terms days', { type: 'integer', minimum: 0, maximum: MAX_PAYMENT_TERMS_DAYS, examples: [30] }, (u, c) =>
  typeof u === 'number' && Number.isInteger(u) && u >= 0 && u <= MAX_PAYMENT_TERMS_DAYS ? t.success(u) : t.failure(u, c, `must be a whole number of days from 0 to ${MAX_PAYMENT_TERMS_DAYS}`),
);

/** A Nigerian bank account number (NUBAN): 10 digits. */
export const nuban = new Documented<string>('NUBAN', { type: 'string', pattern: NUBAN_PATTERN.source, minLength: 10, maxLength: 10, examples: ['0123456789'] }, (u, c) =>
  typeof u === 'string' && NUBAN_PATTERN.test(u) ? t.success(u) : t.failure(u, c, 'must be a 10-digit account number (NUBAN)'),
);
