// A generated page of about 100,000 elements, the size of a long encyclopedia article or a big
// admin table: a navigation of 240 links, a sidebar tree, an article with sections of text and
// links, a data table of 3,000 rows with a button per row, and a footer. Deterministic.
/** @param {number} [elements] roughly how many elements @returns {string} */
export function bigPageHtml(elements = 100_000) {
  const parts = ['<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Big page</title></head><body>'];
  parts.push('<header><nav aria-label="Main">');
  for (let i = 1; i <= 240; i++) parts.push(`<a href="/topic/${i}">Topic ${i}</a> `);
  parts.push('</nav><form role="search"><input type="search" aria-label="Search the site"><button>Search</button></form></header>');
  parts.push('<aside aria-label="Contents"><ul>');
  for (let i = 1; i <= 120; i++) parts.push(`<li><a href="#s${i}">Section ${i}</a><ul><li><a href="#s${i}-a">Part ${i}.a</a></li><li><a href="#s${i}-b">Part ${i}.b</a></li></ul></li>`);
  parts.push('</ul></aside><main><article><h1>A very long article</h1>');
  // Sections of text with inline links: about 12 elements each.
  const rows = 3000;
  const sections = Math.max(10, Math.floor((elements - 240 - 120 * 7 - rows * 11) / 12));
  for (let i = 1; i <= sections; i++) {
    parts.push(`<section id="s${i}"><h2>Section ${i}</h2><p>Paragraph ${i} explains <a href="/ref/${i}">reference ${i}</a> and <b>bold</b> words, with <i>emphasis</i> and <span>more text</span>.</p>`);
    parts.push(`<p>Another paragraph with a <a href="/cite/${i}">citation ${i}</a>.</p><ul><li>Point one</li><li>Point two</li></ul></section>`);
  }
  parts.push('<table><thead><tr><th>Order</th><th>Customer</th><th>Total</th><th>Status</th><th>Action</th></tr></thead><tbody>');
  for (let i = 1; i <= rows; i++) parts.push(`<tr><td>#${i}</td><td><span>Customer ${i}</span></td><td>$${(i * 1.25).toFixed(2)}</td><td><span class="badge">Shipped</span></td><td><button type="button">Refund ${i}</button></td></tr>`);
  parts.push('</tbody></table></article></main><footer>');
  for (let i = 1; i <= 60; i++) parts.push(`<a href="/legal/${i}">Legal ${i}</a> `);
  parts.push('</footer></body></html>');
  return parts.join('');
}
