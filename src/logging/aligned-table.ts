/** One column of an {@link alignedTable}: its heading and which side its cells keep to. */
export interface TableColumn {
  header: string;
  /** `right` for numbers and money, so their digits line up; default `left`. */
  align?: 'left' | 'right';
}

/** Options of {@link alignedTable}. */
export interface AlignedTableOptions {
  /** Text before every line (a log line's indent). */
  indent?: string;
  /** Spaces between columns; default 2. */
  gap?: number;
}

/** Characters a terminal draws for a cell (₹ and the ASCII the tables use are one wide each). */
const widthOf = (text: string): number => [...text].length;

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - widthOf(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * Rows as plain aligned text for a terminal: a header line, then a line per row, columns as
 * wide as their widest cell, no borders, no quotes, no index column, no trailing spaces.
 * Every line ends with a newline.
 *
 * @example
 * ```ts
 * alignedTable([{ header: 'symbol' }, { header: 'ltp', align: 'right' }], [['SBIN-EQ', '₹794.15']]);
 * // 'symbol       ltp\nSBIN-EQ  ₹794.15\n'
 * ```
 */
export function alignedTable(
  columns: readonly TableColumn[],
  rows: readonly (readonly string[])[],
  options: AlignedTableOptions = {},
): string {
  const lines = [columns.map((c) => c.header), ...rows];
  const widths = columns.map((_, i) => Math.max(0, ...lines.map((r) => widthOf(r[i] ?? ''))));
  const gap = ' '.repeat(options.gap ?? 2);
  const indent = options.indent ?? '';
  return lines
    .map((row) => {
      const cells = columns.map((c, i) => pad(row[i] ?? '', widths[i] ?? 0, c.align ?? 'left'));
      return `${indent}${cells.join(gap).trimEnd()}\n`;
    })
    .join('');
}
