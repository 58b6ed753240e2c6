import { z } from 'zod';
import {
  dateTimeText,
  decimalText,
  epochSecondsText,
  integerText,
  orderIdText,
  timeStampText,
} from './formats.ts';

const s = z.string();

/** Fields shared by the order history and order book records. */
const orderCommon = {
  status: s,
  exchange: s,
  symbol: s,
  id: orderIdText,
  price: decimalText,
  quantity: integerText,
  product: s,
  orderStatus: s,
  transactionType: s,
  order: s,
  fillShares: integerText,
  averagePrice: decimalText,
  rejectReason: s,
  exchangeOrderID: s,
  cancelQuantity: integerText,
  disclosedQuantity: integerText,
  orderTriggerPrice: decimalText,
  retention: s,
  bookProfitPrice: decimalText,
  bookLossPrice: decimalText,
  trailingPrice: decimalText,
  amo: s,
  pricePrecision: integerText,
  tickSize: decimalText,
  lotSize: integerText,
  token: s,
  timeStamp: timeStampText,
  orderTime: epochSecondsText,
  exchangeUpdateTime: dateTimeText,
};

/** One record of an order's history (spec §2.4). All strings; empty means no value. */
export const orderHistoryRecordSchema = z.object({
  ...orderCommon,
  reportType: s,
  remarks: s,
  requestTime: s,
  errorMessage: s,
});
/** One record of an order's history (spec §2.4). All strings; empty means no value. */
export type OrderHistoryRecord = z.infer<typeof orderHistoryRecordSchema>;

/** One record of the day's order book (spec §2.5). */
export const orderBookRecordSchema = z.object({
  ...orderCommon,
  userID: s,
  accountID: s,
  marketProtection: s,
  tags: s,
  snoOrderDirection: s,
  snoOrderID: s,
  priceFactor: s,
  multiplier: s,
  displayName: s,
  requiredQuantity: s,
  requiredPrice: s,
  requiredTriggerPrice: s,
  requiredBookLossPrice: s,
  requiredOriginalQuantity: s,
  requiredOriginalPrice: s,
  originalTriggerPrice: s,
  originalBookLossPrice: s,
});
/** One record of the day's order book (spec §2.5). */
export type OrderBookRecord = z.infer<typeof orderBookRecordSchema>;

/** One fill in the day's trade book (spec §2.6). `id` is the order id. */
export const tradeBookRecordSchema = z.object({
  status: s,
  userID: s,
  accountID: s,
  exchange: s,
  symbol: s,
  id: orderIdText,
  quantity: integerText,
  product: s,
  transactionType: s,
  order: s,
  fillShares: integerText,
  averagePrice: decimalText,
  exchangeOrderID: s,
  remarks: s,
  retention: s,
  pricePrecision: integerText,
  tickSize: decimalText,
  lotSize: integerText,
  customFirm: s,
  fillTime: dateTimeText,
  fillID: s,
  fillPrice: decimalText,
  fillQuantity: integerText,
  orderSource: s,
  token: s,
  timeStamp: timeStampText,
  exchangeUpdateTime: dateTimeText,
  snoOrderDirection: s,
  snoOrderID: s,
  requestTime: s,
  errorMessage: s,
});
/** One fill in the day's trade book (spec §2.6). `id` is the order id. */
export type TradeBookRecord = z.infer<typeof tradeBookRecordSchema>;
