import { z } from 'zod';

/** `HH:MM:SS DD-MM-YYYY`, or empty. */
export const timeStampText = z
  .string()
  .regex(/^(\d{2}:\d{2}:\d{2} \d{2}-\d{2}-\d{4})?$/, 'expected "HH:MM:SS DD-MM-YYYY"');

/** `DD-MM-YYYY HH:MM:SS`, or empty. */
export const dateTimeText = z
  .string()
  .regex(/^(\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2})?$/, 'expected "DD-MM-YYYY HH:MM:SS" or ""');

/** Unix epoch seconds as text, or empty. */
export const epochSecondsText = z.string().regex(/^(\d+)?$/, 'expected epoch seconds text');

/** Integer text, or empty. */
export const integerText = z.string().regex(/^(-?\d+)?$/, 'expected integer text');

/** Decimal text such as `801.90`, or empty. */
export const decimalText = z.string().regex(/^(-?\d+(\.\d+)?)?$/, 'expected decimal text');

/** Numeric order identifier text. */
export const orderIdText = z.string().regex(/^\d+$/, 'expected a numeric order id');

/** `DD-MM-YYYY`. */
export const dateKey = z.string().regex(/^\d{2}-\d{2}-\d{4}$/, 'expected "DD-MM-YYYY"');

/** `DD-MON-YYYY`, month as three upper-case letters. */
export const expiryText = z
  .string()
  .regex(
    /^\d{2}-(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)-\d{4}$/,
    'expected "DD-MON-YYYY"',
  );

/** `HH:MM-HH:MM`. */
export const timeRangeText = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, 'expected "HH:MM-HH:MM"');
