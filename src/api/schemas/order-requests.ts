import { z } from 'zod';
import {
  EXCHANGES,
  ORDER_TYPES,
  PRODUCTS,
  TRANSACTION_TYPES,
  VALIDITIES,
} from '../../domain/order-params.ts';
import { decimalText, orderIdText, timeStampText } from './formats.ts';

const positiveIntText = z.string().regex(/^[1-9]\d*$/, 'expected a positive integer as text');
const nonNegIntText = z.string().regex(/^\d+$/, 'expected a non-negative integer as text');
const priceText = decimalText.refine((v) => !v.startsWith('-'), 'price must not be negative');

/** Body of `POST /order/:variety` (spec §4.2). Prices are rupee decimal text. */
export const placeOrderRequestSchema = z.object({
  exchange: z.enum(EXCHANGES),
  token: z.string().regex(/^\d+$/, 'expected a numeric token as text'),
  symbol: z.string().min(1),
  quantity: positiveIntText,
  disclosedQty: nonNegIntText,
  product: z.enum(PRODUCTS),
  transactionType: z.enum(TRANSACTION_TYPES),
  order: z.enum(ORDER_TYPES),
  price: priceText,
  triggerPrice: priceText,
  validity: z.enum(VALIDITIES),
  tags: z.string(),
  amo: z.boolean(),
  bookLossPrice: priceText.optional(),
});
/** Body of `POST /order/:variety` (spec §4.2). Prices are rupee decimal text. */
export type PlaceOrderRequest = z.infer<typeof placeOrderRequestSchema>;

/** Body of `PATCH /order/:variety/:order_id`: as placement, without `symbol`. */
export const modifyOrderRequestSchema = placeOrderRequestSchema.omit({ symbol: true }).extend({
  bookProfitPrice: priceText.optional(),
});
/** Body of `PATCH /order/:variety/:order_id`: as placement, without `symbol`. */
export type ModifyOrderRequest = z.infer<typeof modifyOrderRequestSchema>;

/** `data` of a placement. */
export const placeOrderResultSchema = z.object({
  orderNo: orderIdText,
  requestTime: timeStampText,
});
/** `data` of a placement. */
export type PlaceOrderResult = z.infer<typeof placeOrderResultSchema>;

/** `data` of a modification or cancellation. */
export const messageResultSchema = z.object({ message: z.string() });
/** `data` of a modification or cancellation. */
export type MessageResult = z.infer<typeof messageResultSchema>;
