import { TiqsError } from './tiqs-error.ts';

/**
 * Refused locally: the order has had its 25 modifications. Cancel it and place anew.
 * Nothing was sent.
 */
export class ModifyLimitError extends TiqsError {
  override name = 'ModifyLimitError';
}
