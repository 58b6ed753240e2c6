import { esc } from './format.ts';

const STYLE = `body{font:14px system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}h3{font-size:14px;margin:16px 0 4px}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #e3e6ec;text-align:right;white-space:nowrap}
td:first-child,th:first-child{text-align:left}.up{color:#0a7f3f}.down{color:#c0262d}
.chart{width:100%;height:320px;margin:8px 0}.chart.tall{height:480px}.grid{display:flex;gap:32px;flex-wrap:wrap;align-items:flex-start}
.scroll{overflow-x:auto}#trades td,#trades th{padding:3px 5px}#trades td.down,#trades td.up{font-size:12px}pre{background:#f5f6f8;padding:12px;overflow-x:auto;font-size:12px}
.axis-note{color:#5b6372;font-size:12px;margin:0}
.warning{background:#fff4e5;border-left:4px solid #e07b00;padding:8px 12px}`;

/**
 * The report page around its body: one self-contained HTML document (styles inline,
 * the charting library and the page's script inlined; no request leaves the file), in
 * parts: the body as its parts come, then the library and the script (made only when
 * reached), each handed on as it is rather than copied into one page-long string.
 */
export function* pageShellParts(
  title: string,
  body: Iterable<string>,
  library: string,
  script: () => string,
): Generator<string> {
  yield `<!doctype html>
<html lang="en-IN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style></head><body>
`;
  yield* body;
  yield '\n<script>';
  yield library;
  yield '</script>\n<script>';
  yield script();
  yield `</script>
</body></html>
`;
}
