// The stylesheet and scripts inlined into the HTML report, so the file opens offline and requests
// nothing. diff2html's CSS and its "slim" UI bundle (300 kB: diff2html with highlight.js and the
// grammars of ~50 common languages) are read once, when this module loads, from the installed package.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const DIFF2HTML_CSS: string = readFileSync(require.resolve('diff2html/bundles/css/diff2html.min.css'), 'utf8');

/** Defines the global `Diff2HtmlUI` (draw, highlightCode). Checked for `</script` when loaded. */
export const DIFF2HTML_JS: string = inlineScript(readFileSync(require.resolve('diff2html/bundles/js/diff2html-ui-slim.min.js'), 'utf8'));

/**
 * Syntax colours for the tokens highlight.js marks (GitHub's light palette). Only the token colours:
 * a theme's `.hljs` rule would paint over the red and green of removed and added lines.
 */
export const HIGHLIGHT_CSS = `
.d2h-code-line-ctn .hljs-keyword, .d2h-code-line-ctn .hljs-doctag, .d2h-code-line-ctn .hljs-template-tag, .d2h-code-line-ctn .hljs-type,
.d2h-code-line-ctn .hljs-variable.language_ { color: #cf222e; }
.d2h-code-line-ctn .hljs-title { color: #8250df; }
.d2h-code-line-ctn .hljs-attr, .d2h-code-line-ctn .hljs-attribute, .d2h-code-line-ctn .hljs-literal, .d2h-code-line-ctn .hljs-meta,
.d2h-code-line-ctn .hljs-number, .d2h-code-line-ctn .hljs-operator, .d2h-code-line-ctn .hljs-selector-attr,
.d2h-code-line-ctn .hljs-selector-class, .d2h-code-line-ctn .hljs-selector-id { color: #0550ae; }
.d2h-code-line-ctn .hljs-string, .d2h-code-line-ctn .hljs-regexp { color: #0a3069; }
.d2h-code-line-ctn .hljs-built_in, .d2h-code-line-ctn .hljs-symbol { color: #953800; }
.d2h-code-line-ctn .hljs-comment, .d2h-code-line-ctn .hljs-code, .d2h-code-line-ctn .hljs-formula { color: #59636e; font-style: italic; }
.d2h-code-line-ctn .hljs-name, .d2h-code-line-ctn .hljs-quote, .d2h-code-line-ctn .hljs-selector-tag { color: #116329; }
.d2h-code-line-ctn .hljs-section { color: #0550ae; font-weight: bold; }
.d2h-code-line-ctn .hljs-emphasis { font-style: italic; } .d2h-code-line-ctn .hljs-strong { font-weight: bold; }
`;

function inlineScript(js: string): string {
  // `<\/script` and `<\x21--` mean the same inside JS strings and regular expressions (highlight.js
  // compiles its grammars' regular expressions with the `u` flag, where `\!` is an error), and
  // neither can end or re-open the element.
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\x21--');
}

export const REPORT_CSS =
  `
[hidden] { display: none !important; }
body { font: 14px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; color: #1f2328; margin: 0; padding: 24px 32px ` +
  `48px; background: #fff; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f6f8fa; padding: 1px 4px; border-radius: 4px; }
.meta, .muted { color: #59636e; }
.meta { margin: 0 0 8px; }
.dry-run { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: 8px 12px; }
.counts { display: flex; flex-wrap: wrap; gap: 8px; margin: 16px 0; }
.count { border: 1px solid #d1d9e0; border-radius: 6px; padding: 6px 12px; background: #f6f8fa; }
.count b { font-size: 16px; font-variant-numeric: tabular-nums; }
.count-changed { background: #dafbe1; } .count-failed { background: #ffebe9; } .count-unchanged { background: #ddf4ff; }
.failures { background: #ffebe9; border: 1px solid #cf222e; border-radius: 6px; padding: 4px 16px 12px; margin: 16px 0; }
.failures h2 { color: #a40e26; margin-top: 12px; }
.fgroup { border-top: 1px solid #f5c2c7; padding: 6px 0; }
.fgroup p { margin: 4px 0; }
.fgroup ul { margin: 4px 0; max-height: 320px; overflow: auto; }
.kind { font-weight: 600; color: #a40e26; }
.fix { color: #3d444d; margin: 2px 0 4px; }
.ok-banner { background: #dafbe1; border: 1px solid #1a7f37; border-radius: 6px; padding: 8px 12px; margin: 16px 0; }
.filters { position: sticky; top: 0; z-index: 10; background: #fff; padding: 8px 0; border-bottom: 1px solid #d1d9e0; display: flex; flex-wrap: ` +
  `wrap; gap: 12px; align-items: center; }
.filters input { font: inherit; padding: 4px 8px; min-width: 320px; border: 1px solid #d1d9e0; border-radius: 6px; }
.filters button { font: inherit; padding: 3px 10px; border: 1px solid #d1d9e0; background: #f6f8fa; border-radius: 6px; cursor: pointer; margin-right: 2px; }
.toolbar { margin: 8px 0; }
.toolbar button { font: inherit; padding: 3px 10px; border: 1px solid #d1d9e0; background: #f6f8fa; border-radius: 6px; cursor: pointer; }
.toolbar button[aria-pressed="true"], .filters button[aria-pressed="true"] { background: #0969da; border-color: #0969da; color: #fff; }
table.jobs, table.files, table.diagnostics { border-collapse: collapse; margin: 8px 0; }
table.jobs th, table.jobs td, table.files th, table.files td, table.diagnostics th, table.diagnostics td { border: 1px solid #d1d9e0; padding: 3px ` +
  `10px; text-align: left; }
table.jobs td.n, table.files td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f6f8fa; }
tr.repo-row th { background: #eaeef2; font-size: 15px; }
.status { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; }
.status-changed { background: #dafbe1; color: #116329; }
.status-unchanged { background: #ddf4ff; color: #0969da; }
.status-empty { background: #eff2f5; color: #59636e; }
.status-failed { background: #ffebe9; color: #a40e26; }
.warn { color: #9a6700; font-weight: 600; }
.sev-error { color: #a40e26; font-weight: 600; } .sev-warning { color: #9a6700; }
.add { color: #116329; } .del { color: #a40e26; }
.repo > h2 { border-bottom: 1px solid #d1d9e0; }
details.job { border: 1px solid #d1d9e0; border-radius: 6px; margin: 6px 0; }
details.job > summary { cursor: pointer; padding: 6px 10px; background: #f6f8fa; border-radius: 6px; }
details.job[open] > summary { border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0; }
.job-name { font-weight: 600; }
.job-body { padding: 0 12px 12px; }
.no-diff { color: #59636e; font-style: italic; }
.big-diff { border: 1px solid #d1d9e0; border-radius: 6px; padding: 6px 10px; margin: 8px 0; background: #f6f8fa; }
.big-diff button { font: inherit; padding: 1px 10px; margin-left: 8px; border: 1px solid #d1d9e0; background: #fff; border-radius: 6px; cursor: pointer; }
.file-note { color: #59636e; margin: 8px 0 -4px; font-size: 12px; }
.d2h-code-line-ctn del, .d2h-code-line-ctn ins { text-decoration: none; border-radius: 2px; }
body[data-view="line-by-line"] .view[data-view="side-by-side"],
body[data-view="side-by-side"] .view[data-view="line-by-line"] { display: none; }
`;

/**
 * The page's behaviour: the filter box and status buttons over the index, jobs opened from links,
 * diffs drawn from the JSON data when a job is opened (in the chosen view), and a performance mark
 * `scion-ready` once the page can be used.
 */
export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var dataEl = document.getElementById('scion-diffs');
  var data = dataEl ? JSON.parse(dataEl.textContent) : [];
  var body = document.body;
  var jobs = {};
  Array.prototype.forEach.call(document.querySelectorAll('details.job'), function (d) { jobs[d.getAttribute('data-job')] = d; });
  var rows = Array.prototype.slice.call(document.querySelectorAll('table.jobs tr[data-job]'));
  var texts = rows.map(function (r) { return r.getAttribute('data-text') || ''; });
  var input = document.getElementById('filter');
  var shownEl = document.getElementById('shown');
  var status = 'all';

  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  function note(text) { return '<p class="no-diff">' + text + '</p>'; }
  var uiConfig = { drawFileList: false, matching: 'lines', diffStyle: 'word', highlight: false, fileListToggle: false,
    fileContentToggle: false, stickyFileHeaders: false, synchronisedScroll: true };

  // One file's diff in the chosen view: diff2html draws it, marks the changed words (<ins>/<del>),
  // then highlight.js colours it in the language the report guessed from the path.
  function drawFile(el, f, view) {
    var d = f.d;
    // diff2html reads "/dev/null -> name" as a rename; git's headers say the file is new or deleted.
    if (f.n) d = 'diff --git a/' + f.p + ' b/' + f.p + '\\nnew file mode 100644\\n' + d;
    else if (f.o) d = 'diff --git a/' + f.p + ' b/' + f.p + '\\ndeleted file mode 100644\\n' + d;
    var cfg = {};
    for (var k in uiConfig) cfg[k] = uiConfig[k];
    cfg.outputFormat = view;
    var ui = new Diff2HtmlUI(el, d, cfg);
    ui.draw();
    if (f.l) {
      Array.prototype.forEach.call(el.querySelectorAll('.d2h-file-wrapper'), function (w) { w.setAttribute('data-lang', f.l); });
      ui.config.highlightLanguages = new Map([[f.l, f.l]]);
    }
    ui.highlightCode();
  }

  function fileBox(f, view) {
    var box = document.createElement('div');
    box.className = 'file';
    if (f.x !== undefined) {
      box.innerHTML = note('<code>' + esc(f.p) + '</code>: diff of ' + f.x.toLocaleString('en-US') +
        ' lines not included (<a href="#not-rendered">large run</a>).');
    } else if (f.d === undefined) {
      box.innerHTML = note('<code>' + esc(f.p) + '</code>: ' + esc(f.e || 'no text change') + '.');
    } else if (f.c) {
      // A lock file, a generated file or a huge change: its counts, and the diff when asked for.
      box.innerHTML = '<div class="big-diff"><code>' + esc(f.p) + '</code> <span class="add">+' + f.c[2].toLocaleString('en-US') +
        '</span> <span class="del">\u2212' + f.c[3].toLocaleString('en-US') + '</span> \u00b7 ' + esc(f.c[1]) + ', ' +
        f.c[0].toLocaleString('en-US') + ' diff lines<button type="button" class="open-diff">Open diff</button></div>';
      box.querySelector('button').addEventListener('click', function () {
        box.textContent = '';
        drawFile(box, f, view);
      });
    } else {
      if (f.e) box.innerHTML = '<p class="file-note"><code>' + esc(f.p) + '</code>: ' + esc(f.e) + '</p>';
      var inner = document.createElement('div');
      box.appendChild(inner);
      drawFile(inner, f, view);
    }
    return box;
  }

  // One diff that cannot be drawn (a grammar that throws) must not take the job's other diffs with it.
  function safeFileBox(f, view) {
    try {
      return fileBox(f, view);
    } catch (err) {
      var box = document.createElement('div');
      box.innerHTML = note('<code>' + esc(f.p) + '</code>: this diff could not be drawn (' + esc(err && err.message) + ').');
      return box;
    }
  }

  function draw(details) {
    var box = details.querySelector('.diffs');
    if (!box) return;
    var view = body.getAttribute('data-view');
    if (box.querySelector('.view[data-view="' + view + '"]')) return;
    if (!box.hasAttribute('data-drawn')) { box.textContent = ''; box.setAttribute('data-drawn', ''); }
    var files = data[Number(details.getAttribute('data-job'))] || [];
    var div = document.createElement('div');
    div.className = 'view';
    div.setAttribute('data-view', view);
    for (var i = 0; i < files.length; i++) div.appendChild(safeFileBox(files[i], view));
    box.appendChild(div);
  }

  document.addEventListener('toggle', function (e) {
    var t = e.target;
    if (t && t.classList && t.classList.contains('job') && t.open) draw(t);
  }, true);

  function openJob(id) {
    var m = /^#?job-(\\d+)$/.exec(id);
    var d = m && jobs[m[1]];
    if (!d) return;
    d.hidden = false;
    if (!d.open) d.open = true;
    d.scrollIntoView();
  }
  document.addEventListener('click', function (e) {
    var a = e.target && e.target.closest && e.target.closest('a[href^="#job-"]');
    if (!a) return;
    e.preventDefault();
    if (location.hash !== a.getAttribute('href')) history.pushState(null, '', a.getAttribute('href'));
    openJob(a.getAttribute('href'));
  });
  window.addEventListener('hashchange', function () { openJob(location.hash); });

  function apply() {
    var words = (input ? input.value : '').toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var ok = status === 'all' || row.getAttribute('data-status') === status;
      for (var w = 0; ok && w < words.length; w++) ok = texts[i].indexOf(words[w]) !== -1;
      row.hidden = !ok;
      var d = jobs[row.getAttribute('data-job')];
      if (d) d.hidden = !ok;
      if (ok) shown++;
    }
    Array.prototype.forEach.call(document.querySelectorAll('table.jobs tbody[data-repo]'), function (tb) {
      tb.hidden = !tb.querySelector('tr[data-job]:not([hidden])');
    });
    Array.prototype.forEach.call(document.querySelectorAll('section.repo'), function (s) {
      s.hidden = !s.querySelector('details.job:not([hidden])');
    });
    if (shownEl) shownEl.textContent = (shown === rows.length ? '' : shown.toLocaleString('en-US') + ' of ') + rows.length.toLocaleString('en-US') + ' jobs';
  }
  if (input) input.addEventListener('input', apply);
  var statusButtons = document.querySelectorAll('.filters button[data-status]');
  Array.prototype.forEach.call(statusButtons, function (b) {
    b.addEventListener('click', function () {
      status = b.getAttribute('data-status');
      Array.prototype.forEach.call(statusButtons, function (o) { o.setAttribute('aria-pressed', String(o === b)); });
      apply();
    });
  });

  var viewButtons = document.querySelectorAll('button[data-view]');
  Array.prototype.forEach.call(viewButtons, function (b) {
    b.addEventListener('click', function () {
      body.setAttribute('data-view', b.getAttribute('data-view'));
      Array.prototype.forEach.call(viewButtons, function (o) { o.setAttribute('aria-pressed', String(o === b)); });
      for (var k in jobs) if (jobs[k].open) draw(jobs[k]);
    });
  });

  if (location.hash) openJob(location.hash);
  if (window.performance && performance.mark) performance.mark('scion-ready');
})();
`;
