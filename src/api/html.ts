// The self-contained HTML report (its renderer and assets are loaded only by the runs that write one).
export { renderHtml } from '../report/html.js';
