import type { z } from 'zod';
import {
  modifyOrderRequestSchema,
  placeOrderRequestSchema,
} from '../../api/schemas/order-requests.ts';
import { quoteRequestSchema } from '../../api/schemas/quote-request.ts';
import { optionChainRequestSchema, tokenListSchema } from '../../api/schemas/utilities.ts';
import { QUOTE_MODES, type QuoteMode, VARIETIES, type Variety } from '../../domain/order-params.ts';
import { instrumentMasterFile } from '../market/instrument-master-file.ts';
import { badRequest } from '../sim-error.ts';
import type { SimExchange } from '../sim-exchange.ts';
import { serveCandles } from './candle-route.ts';
import { RawAnswer } from './raw-answer.ts';
import type { RouteId } from './route-table.ts';

/** What {@link dispatch} needs besides the exchange. */
export interface DispatchOptions {
  /** Most tokens accepted by the list-quote and greeks operations. */
  maxTokensPerRequest: number;
  /** The request's URL: the candle route reads its query. */
  url?: string;
  /** A placement is REJECTED by the exchange with this reason (fault injection). */
  rejectReason?: string;
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const detail = result.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : 'body'}: ${i.message}`)
    .join('; ');
  throw badRequest(`Invalid request body: ${detail}`);
}

function mode(text: string | undefined): QuoteMode {
  const m = QUOTE_MODES.find((v) => v === text);
  if (m === undefined) throw badRequest(`Quote mode must be one of ${QUOTE_MODES.join(', ')}`);
  return m;
}

function variety(text: string | undefined): Variety {
  const v = VARIETIES.find((x) => x === text);
  if (v === undefined) throw badRequest(`Order variety must be one of ${VARIETIES.join(', ')}`);
  return v;
}

function orderId(text: string | undefined): string {
  if (text === undefined || !/^\d{1,20}$/.test(text)) throw badRequest('Order id must be numeric');
  return text;
}

/**
 * Runs one operation on the exchange: validates path parameters and the body (already
 * JSON-parsed) and returns the response `data`. Throws {@link SimError} for refusals.
 */
export function dispatch(
  exchange: SimExchange,
  route: RouteId,
  params: readonly string[],
  body: unknown,
  options: DispatchOptions,
): unknown {
  const tokens = (): number[] => {
    const list = parse(tokenListSchema, body);
    if (list.length > options.maxTokensPerRequest) {
      throw badRequest(`At most ${options.maxTokensPerRequest} tokens per request`);
    }
    return list;
  };
  switch (route) {
    case 'quote':
      return exchange.quote(mode(params[0]), parse(quoteRequestSchema, body).token);
    case 'quotes': {
      const m = mode(params[0]);
      return exchange.quotes(m, tokens());
    }
    case 'placeOrder': {
      const v = variety(params[0]);
      return exchange.placeOrder(v, parse(placeOrderRequestSchema, body), options.rejectReason);
    }
    case 'modifyOrder': {
      const v = variety(params[0]);
      const id = orderId(params[1]);
      return exchange.modifyOrder(v, id, parse(modifyOrderRequestSchema, body));
    }
    case 'cancelOrder': {
      const v = variety(params[0]);
      return exchange.cancelOrder(v, orderId(params[1]));
    }
    case 'orderDetails':
      return exchange.orderHistory(orderId(params[0]));
    case 'orderBook':
      return exchange.orderBook();
    case 'tradeBook':
      return exchange.tradeBook();
    case 'holidays':
      return exchange.holidays();
    case 'indexList':
      return exchange.indexList();
    case 'optionChainSymbols':
      return exchange.optionChainSymbols();
    case 'optionChain':
      return exchange.optionChain(parse(optionChainRequestSchema, body));
    case 'greeks':
      return exchange.greeks(tokens());
    case 'instrumentMaster':
      // "probably application/octet-stream" (api-facts.md): the client must not rely on it.
      return new RawAnswer(
        instrumentMasterFile(exchange.market.universe),
        'application/octet-stream',
      );
    case 'candles':
      return serveCandles(exchange, params, options.url ?? '');
  }
}

/** Operations that take a JSON body. */
export const BODIED_ROUTES: ReadonlySet<RouteId> = new Set([
  'quote',
  'quotes',
  'placeOrder',
  'modifyOrder',
  'optionChain',
  'greeks',
]);
