import type { AlertKind } from '../../config/notify-config-schema.ts';
import { istParts, toIstIso } from '../../domain/ist.ts';

/**
 * One alert: what happened, in words a trader reads on a phone (symbols, ₹ with Indian
 * grouping), and the same as fields for a machine. Money in `data` is in paise.
 */
export interface Alert {
  kind: AlertKind;
  /** Market time (the kernel's clock), epoch ms. */
  at: number;
  /** One or a few lines, without the time (added by {@link alertText}). */
  text: string;
  data?: Record<string, unknown>;
}

const two = (n: number): string => String(n).padStart(2, '0');

/** `09:31:02 IST` of an instant. */
function istClock(ms: number): string {
  const p = istParts(ms);
  return `${two(p.hour)}:${two(p.minute)}:${two(p.second)} IST`;
}

/**
 * The message of an alert as a person reads it: market time in IST, then the text.
 *
 * @example
 * ```ts
 * alertText({ kind: 'fill', at: Date.parse('2026-11-20T04:01:02Z'), text: 'sma  BUY 10 SBIN-EQ @ ₹794.15 filled' });
 * // '09:31:02 IST  sma  BUY 10 SBIN-EQ @ ₹794.15 filled'
 * ```
 */
export function alertText(alert: Alert): string {
  return `${istClock(alert.at)}  ${alert.text}`;
}

/** The JSON a webhook receives for an alert: `marketTime` in ISO IST. */
export function alertPayload(alert: Alert, source: { mode: string }): Record<string, unknown> {
  return {
    kind: alert.kind,
    marketTime: toIstIso(alert.at),
    at: alert.at,
    text: alertText(alert),
    mode: source.mode,
    ...(alert.data === undefined ? {} : { data: alert.data }),
  };
}
