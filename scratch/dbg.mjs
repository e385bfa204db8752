import { loadContent } from '/work/main/test/unit/content-dom.js';
const { window } = loadContent('<p>x</p>', ['page-world.js']);
console.log(window.eval(`[typeof alert, alert.name, Object.getOwnPropertyDescriptor(window,'alert'), console.log.name]`));
const b = loadContent('<p>x</p>', []).window;
console.log(b.eval(`[typeof alert, alert.name, Object.getOwnPropertyDescriptor(window,'alert'), console.log.name]`));
