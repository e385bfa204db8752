// The privacy policy page, in the browser's language: every paragraph names its message in
// _locales (the English text in privacy.html is what a store reviewer reads in the package).
import { localize } from './i18n.js';

localize();
