import { istParts } from '../domain/ist.ts';

/**
 * Formatting of instants in Indian Standard Time for the wire. IST has no daylight
 * saving, so a fixed offset is exact and far cheaper than a time-zone library on the
 * per-record hot path.
 */

const MONTHS = [
  'JAN',
  'FEB',
  'MAR',
  'APR',
  'MAY',
  'JUN',
  'JUL',
  'AUG',
  'SEP',
  'OCT',
  'NOV',
  'DEC',
] as const;

const p2 = (n: number): string => String(n).padStart(2, '0');

/** `HH:MM:SS DD-MM-YYYY` (the spec's `timeStamp`). */
export function formatTimeStamp(ms: number): string {
  const t = istParts(ms);
  return `${p2(t.hour)}:${p2(t.minute)}:${p2(t.second)} ${p2(t.day)}-${p2(t.month)}-${t.year}`;
}

/** `DD-MM-YYYY HH:MM:SS` (the spec's `exchangeUpdateTime` and `fillTime`). */
export function formatDateTime(ms: number): string {
  const t = istParts(ms);
  return `${p2(t.day)}-${p2(t.month)}-${t.year} ${p2(t.hour)}:${p2(t.minute)}:${p2(t.second)}`;
}

/** `DD-MON-YYYY` (expiries). */
export function formatExpiry(ms: number): string {
  const t = istParts(ms);
  return `${p2(t.day)}-${MONTHS[t.month - 1]}-${t.year}`;
}

/** `DDMONYY`, as inside NFO trading symbols (`NIFTY27JAN26C25800`). */
export function formatSymbolDate(ms: number): string {
  const t = istParts(ms);
  return `${p2(t.day)}${MONTHS[t.month - 1]}${String(t.year).slice(2)}`;
}

/** Unix epoch seconds as text (the spec's `orderTime`). */
export function formatEpochSeconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}
