// Small line icons for icon-only buttons, built as SVG elements (no markup is parsed into the panel).
const SVG = 'http://www.w3.org/2000/svg';

/**
 * @param {string} tag @param {Record<string, string>} attrs
 */
function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/**
 * A 14 px icon drawn with the text colour, hidden from screen readers (the button has the label).
 * @param {{ tag: 'path' | 'rect', attrs: Record<string, string> }[]} shapes
 */
export function lineIcon(shapes) {
  const svg = svgEl('svg', { 'aria-hidden': 'true', width: '14', height: '14', viewBox: '0 0 16 16', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.5' });
  svg.append(...shapes.map((s) => svgEl(s.tag, s.attrs)));
  return svg;
}

/** Two overlapping sheets. */
export const copyIcon = () => lineIcon([
  { tag: 'rect', attrs: { x: '5', y: '5', width: '9', height: '9', rx: '1.5' } },
  { tag: 'path', attrs: { d: 'M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5' } },
]);

/** A circling arrow. */
export const retryIcon = () => lineIcon([
  { tag: 'path', attrs: { d: 'M13.5 8a5.5 5.5 0 1 1-1.6-3.9' } },
  { tag: 'path', attrs: { d: 'M12.5 1.5v3h-3' } },
]);
