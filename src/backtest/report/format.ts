import { formatInr } from '../../domain/money.ts';

/** IST is UTC+5:30: the charts' time axis shows UTC, so times are shifted to read as IST. */
export const IST_SECONDS = 19_800;

/** Escapes text for HTML. */
export function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** JSON safe inside a `<script>` element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Epoch ms as IST wall time, `2026-11-20 09:15:00`. */
export const ist = (ms: number): string =>
  new Date(ms + IST_SECONDS * 1_000).toISOString().replace('T', ' ').slice(0, 19);

/** Paise as `₹10,00,000.00` (Indian grouping), escaped for HTML. */
export const inr = (paise: number): string => esc(formatInr(Math.round(paise)));

/** A percentage with its sign, `-1.25%`. */
export const pct = (x: number): string => `${Number.isFinite(x) ? x.toFixed(2) : '—'}%`;

/** A duration for people: `45s`, `12m 30s`, `3h 05m`, `2d 4h`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1_000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** A cell classed up or down by the sign of `value`. */
export const signed = (value: number, text: string): string =>
  `<td class="${value > 0 ? 'up' : value < 0 ? 'down' : ''}">${text}</td>`;

/** A table with a header row and body rows (cells already HTML). */
export function table(id: string, head: readonly string[], rows: readonly string[]): string {
  return [...tableParts(id, head, rows, (r) => r)].join('');
}

/** Rows of a long table turned into HTML and handed on at a time. */
const ROWS_PER_PART = 200;

/**
 * {@link table}'s text in parts, a couple of hundred body rows a part, each row built
 * from its item only when its part is: a run's thousands of fills are never all in memory
 * as HTML at once.
 */
export function* tableParts<T>(
  id: string,
  head: readonly string[],
  items: readonly T[],
  row: (item: T) => string,
): Generator<string> {
  const th = head.map((h) => `<th>${esc(h)}</th>`).join('');
  yield `<table id="${id}"><thead><tr>${th}</tr></thead><tbody>`;
  for (let i = 0; i < items.length; i += ROWS_PER_PART) {
    let rows = '';
    for (const item of items.slice(i, i + ROWS_PER_PART)) rows += row(item);
    yield rows;
  }
  yield '</tbody></table>';
}
