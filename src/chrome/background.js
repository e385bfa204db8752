// Chrome (MV3) service worker entry: loads the polyfill, builds the Chrome platform, starts the router.
import './vendor/browser-polyfill.js';
import { createPlatform } from './platform/index.js';
import { startRouter } from './service/router.js';
import { openWelcomeOnInstall } from './platform/welcome-tab.js';

openWelcomeOnInstall();
startRouter({ platform: createPlatform() });
