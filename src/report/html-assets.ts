// The stylesheet and script inlined into the HTML report, so the file opens offline and requests
// nothing. diff2html's own CSS is read once, when this module loads, from the installed package.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const DIFF2HTML_CSS: string = readFileSync(require.resolve('diff2html/bundles/css/diff2html.min.css'), 'utf8');

export const REPORT_CSS = `
body { font: 14px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; color: #1f2328; margin: 0; padding: 24px 32px 48px; background: #fff; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f6f8fa; padding: 1px 4px; border-radius: 4px; }
.meta { color: #59636e; margin: 0 0 8px; }
.dry-run { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: 8px 12px; }
.failures { background: #ffebe9; border: 1px solid #cf222e; border-radius: 6px; padding: 4px 16px 12px; margin: 16px 0; }
.failures h2 { color: #a40e26; margin-top: 12px; }
.failures li { margin: 6px 0; }
.kind { font-weight: 600; color: #a40e26; }
.fix { color: #3d444d; margin-top: 2px; }
.ok-banner { background: #dafbe1; border: 1px solid #1a7f37; border-radius: 6px; padding: 8px 12px; margin: 16px 0; }
table.jobs, table.files { border-collapse: collapse; margin: 8px 0; }
table.jobs th, table.jobs td, table.files th, table.files td { border: 1px solid #d1d9e0; padding: 4px 10px; text-align: left; }
table.jobs td.n, table.files td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f6f8fa; }
.status { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; }
.status-changed { background: #dafbe1; color: #116329; }
.status-unchanged { background: #ddf4ff; color: #0969da; }
.status-empty { background: #eff2f5; color: #59636e; }
.status-failed { background: #ffebe9; color: #a40e26; }
.add { color: #116329; } .del { color: #a40e26; }
.toolbar { position: sticky; top: 0; z-index: 10; background: #fff; padding: 8px 0; border-bottom: 1px solid #d1d9e0; margin-top: 16px; }
.toolbar button { font: inherit; padding: 3px 12px; border: 1px solid #d1d9e0; background: #f6f8fa; border-radius: 6px; cursor: pointer; }
.toolbar button[aria-pressed="true"] { background: #0969da; border-color: #0969da; color: #fff; }
.job { border-top: 2px solid #d1d9e0; margin-top: 24px; }
.no-diff { color: #59636e; font-style: italic; }
body[data-view="line-by-line"] .view[data-view="side-by-side"],
body[data-view="side-by-side"] .view[data-view="line-by-line"] { display: none; }
`;

/** Switches every job's diffs between the two renderings; the choice lives on <body data-view>. */
export const REPORT_SCRIPT = `
(function () {
  var buttons = document.querySelectorAll('button[data-view]');
  function show(view) {
    document.body.setAttribute('data-view', view);
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute('aria-pressed', String(buttons[i].getAttribute('data-view') === view));
    }
  }
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener('click', function (e) { show(e.currentTarget.getAttribute('data-view')); });
  }
})();
`;
