import { z } from 'zod';
import type { OrderIntent } from '../domain/intents.ts';
import {
  EXCHANGES,
  ORDER_TYPES,
  PRODUCTS,
  TRANSACTION_TYPES,
  VALIDITIES,
  VARIETIES,
} from '../domain/order-params.ts';

/**
 * Intent id prefixes and suffixes the bot uses for orders it places itself; a strategy
 * that picked one could be mistaken for them (a `shutdown-…` order is never cancelled by
 * a `flatten` stop, a `…/stop` one is kept as a cover order's stop leg).
 */
export const RESERVED_INTENT_IDS: {
  readonly prefixes: Readonly<Record<string, string>>;
  readonly suffixes: Readonly<Record<string, string>>;
} = {
  prefixes: {
    'shutdown-': "a stop's square-off (execution.onShutdown: flatten)",
    'auto-eod-': 'the intraday square-off before the close',
    'kill-': "the kill switch's square-off",
    'ops-': "an operator's control (dashboard, Telegram)",
  },
  suffixes: {
    '/stop': "a cover order's stop leg",
    '#duplicate': 'a late duplicate of a re-placed order',
    '/sl': "a bracket's stop leg",
    '/tp': "a bracket's target leg",
    '/exit': "a bracket's market exit",
    '~m': "a modification of a bracket's leg",
  },
};

/**
 * A square-off's orders are `${id}:${token}` and skip the "already used" check (they
 * are the bot's own), so a strategy's id with a `:` could be taken for one of them.
 */
const RESERVED_ID_CHARACTER = ':';

/** The next try of a refused square-off exit is the square-off's id plus `#retry<n>`. */
export const RETRY_SUFFIX = /#retry\d+$/;

/** The id of try `n` of a square-off refused under `id` (see {@link RETRY_SUFFIX}). */
export const retryIntentId = (id: string, n: number): string => `${id}#retry${n}`;

/**
 * The square-offs the framework starts itself (before the close, the kill switch, an
 * operator's control), whose refused exits it tries again; a strategy's own square-off
 * is the strategy's to follow up.
 */
export const FRAMEWORK_SQUARE_OFF = /^(?:auto-eod-|kill-|ops-)/;

const RESERVED_PREFIXES = Object.entries(RESERVED_INTENT_IDS.prefixes);
const RESERVED_SUFFIXES = Object.entries(RESERVED_INTENT_IDS.suffixes);

/** Why `value` may not be a strategy's intent id, if it may not. */
function reservedIdProblem(value: string): string | undefined {
  if (value.includes(RESERVED_ID_CHARACTER))
    return `intent id "${value}" contains "${RESERVED_ID_CHARACTER}", which is reserved for a square-off's orders (\`<id>:<token>\`); choose another id`;
  for (const [prefix, use] of RESERVED_PREFIXES)
    if (value.startsWith(prefix))
      return `intent id "${value}" starts with "${prefix}", which is reserved for ${use}; choose another id`;
  for (const [suffix, use] of RESERVED_SUFFIXES)
    if (value.endsWith(suffix))
      return `intent id "${value}" ends with "${suffix}", which is reserved for ${use}; choose another id`;
  if (RETRY_SUFFIX.test(value))
    return `intent id "${value}" ends with "#retry<n>", which is reserved for the next try of a refused square-off exit; choose another id`;
  return undefined;
}

/** A strategy's own intent id: not empty, and none the bot keeps for itself. */
const id = z
  .string()
  .min(1)
  .superRefine((value, ctx) => {
    const problem = reservedIdProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
/**
 * A bracket's id: its legs are `<id>/sl`, `<id>#2/sl` and its exit `<id>/exit`, so a
 * `#` or `/` in it would make a leg read as another bracket's (its fills lost to it).
 */
const bracketId = id.refine((value) => !/[#/]/.test(value), {
  message:
    'a bracket id may not contain "#" or "/": its legs are named `<id>/sl`, `<id>#2/tp`; choose another id',
});

/** An id an intent refers to (its target may be a cover order's stop leg). */
const target = z.string().min(1);
const paise = z.number().int();
const reason = z.string().optional();

/** Tokens are numbers in every intent; the wire's text form is made at the edge. */
const token = z.number({ error: 'a token is a number (write 3045, not "3045")' }).int().positive();

const instrument = z.looseObject({
  exchange: z.enum(EXCHANGES),
  token,
  symbol: z.string().min(1),
  lotSize: z.number().int().positive().optional(),
  tickSize: paise.positive().optional(),
});

/** A bracket's stop or target: points (paise) from the entry's average, or a price (paise). */
const bracketLevel = z.union([
  z.looseObject({ points: paise.positive() }),
  z.looseObject({ price: paise.positive() }),
]);

/** The intent kinds at the kernel boundary; extra fields pass (strategies may tag intents). */
export const intentSchema = z.discriminatedUnion('kind', [
  z.looseObject({
    kind: z.literal('place'),
    id,
    instrument,
    side: z.enum(TRANSACTION_TYPES),
    quantity: z.number().int().positive(),
    orderType: z.enum(ORDER_TYPES),
    price: paise.optional(),
    triggerPrice: paise.optional(),
    product: z.enum(PRODUCTS),
    validity: z.enum(VALIDITIES).optional(),
    variety: z.enum(VARIETIES).optional(),
    bookLossPrice: paise.optional(),
    disclosedQty: z.number().int().min(0).optional(),
    afterHours: z.enum(['wait', 'amo']).optional(),
    reason,
  }),
  z.looseObject({
    kind: z.literal('modify'),
    id,
    target,
    quantity: z.number().int().positive().optional(),
    price: paise.optional(),
    triggerPrice: paise.optional(),
    orderType: z.enum(ORDER_TYPES).optional(),
    reason,
  }),
  z.looseObject({ kind: z.literal('cancel'), id, target, reason }),
  z.looseObject({
    kind: z.literal('bracket'),
    id: bracketId,
    instrument,
    side: z.enum(TRANSACTION_TYPES),
    quantity: z.number().int().positive(),
    product: z.enum(PRODUCTS),
    entry: z.looseObject({ orderType: z.enum(['MKT', 'LMT']), price: paise.positive().optional() }),
    stopLoss: bracketLevel,
    target: bracketLevel.optional(),
    trailing: z.looseObject({ points: paise.positive() }).optional(),
    afterHours: z.enum(['wait', 'amo']).optional(),
    reason,
  }),
  z.looseObject({
    kind: z.literal('squareOff'),
    id,
    token: token.optional(),
    product: z.enum(PRODUCTS).optional(),
    reason,
  }),
]);

/** What {@link checkIntent} finds. */
export type IntentCheck = { ok: true; intent: OrderIntent } | { ok: false; problem: string };

/** A short, safe rendering of what a strategy emitted, for the error line. */
function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  try {
    const text = JSON.stringify(value);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return String(value);
  }
}

/**
 * Checks that a value a strategy emitted is an order intent: an object with a known
 * `kind` and that kind's required fields, of the right types. The kernel stops a
 * strategy that emits anything else, as it does one that throws.
 *
 * @example
 * ```ts
 * checkIntent(undefined); // { ok: false, problem: 'undefined is not an intent: …' }
 * ```
 */
export function checkIntent(value: unknown): IntentCheck {
  if (plainPlaceIntent(value)) return { ok: true, intent: value as OrderIntent };
  const parsed = intentSchema.safeParse(value);
  if (parsed.success) return { ok: true, intent: value as OrderIntent };
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length === 0 ? 'intent' : i.path.join('.')}: ${i.message}`)
    .join('; ');
  return { ok: false, problem: `${describe(value)} is not an intent (${issues})` };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const isPositiveInt = (v: unknown): boolean => isInt(v) && v > 0;
const optional = (v: unknown, check: (v: unknown) => boolean): boolean =>
  v === undefined || check(v);
const oneOf =
  (values: readonly string[]) =>
  (v: unknown): boolean =>
    typeof v === 'string' && values.includes(v);
const isExchange = oneOf(EXCHANGES);
const isSide = oneOf(TRANSACTION_TYPES);
const isOrderType = oneOf(ORDER_TYPES);
const isProduct = oneOf(PRODUCTS);
const isValidity = oneOf(VALIDITIES);
const isVariety = oneOf(VARIETIES);
const isAfterHours = oneOf(['wait', 'amo']);
const isText = (v: unknown): boolean => typeof v === 'string';

/**
 * A `place` intent whose every field the schema accepts, recognised without zod: what
 * strategies emit most, checked in well under a microsecond. zod's parse of the union
 * took ≈ 20–35 µs a call over a backtest's first thousand intents (its compiled checks
 * warming up) and ≈ 70 ms of a 30-day CLI backtest (issue 13). It only ever says yes to
 * what the schema accepts (`check-intent.test.ts` compares the two on every field's
 * good and bad values); anything else, and every message, goes through the schema.
 */
export function plainPlaceIntent(v: unknown): boolean {
  if (!isRecord(v) || v.kind !== 'place') return false;
  const { id, instrument: i } = v;
  return (
    typeof id === 'string' &&
    id.length > 0 &&
    reservedIdProblem(id) === undefined &&
    isRecord(i) &&
    isExchange(i.exchange) &&
    isPositiveInt(i.token) &&
    typeof i.symbol === 'string' &&
    i.symbol.length > 0 &&
    optional(i.lotSize, isPositiveInt) &&
    optional(i.tickSize, isPositiveInt) &&
    isSide(v.side) &&
    isPositiveInt(v.quantity) &&
    isOrderType(v.orderType) &&
    optional(v.price, isInt) &&
    optional(v.triggerPrice, isInt) &&
    isProduct(v.product) &&
    optional(v.validity, isValidity) &&
    optional(v.variety, isVariety) &&
    optional(v.bookLossPrice, isInt) &&
    optional(v.disclosedQty, (q) => isInt(q) && q >= 0) &&
    optional(v.afterHours, isAfterHours) &&
    optional(v.reason, isText)
  );
}

/** A strategy emitted something that is not an intent; it is stopped, the others go on. */
export class InvalidIntentError extends Error {
  override readonly name = 'InvalidIntentError';

  constructor(
    readonly strategyId: string,
    problem: string,
  ) {
    super(`strategy "${strategyId}" emitted ${problem}`);
  }
}
