// Firefox (MV2) background page entry: builds the Firefox platform and starts the router.
// The polyfill is loaded by background.html before this module.
import { createPlatform } from './platform/index.js';
import { startRouter } from './service/router.js';
import { openWelcomeOnInstall } from './platform/welcome-tab.js';

openWelcomeOnInstall();
startRouter({ platform: createPlatform() });
