// Screenshots through CDP Page.captureScreenshot: works on background tabs, and captures regions
// beyond the viewport (full page, an element) without scrolling the user's page.
/** @import { ScreenshotOptions } from '../types/platform' */

/**
 * @param {ReturnType<typeof import('./session.js').createCdpSessions>} cdp
 * @param {number} tabId @param {ScreenshotOptions} opts
 */
export async function captureScreenshot(cdp, tabId, opts) {
  const v = opts.viewport;
  const clip = opts.clip ?? { x: v.scrollX, y: v.scrollY, width: v.width, height: v.height };
  const { data } = await cdp.send(tabId, 'Page.captureScreenshot', {
    format: 'png',
    clip: { ...clip, scale: 1 },
    captureBeyondViewport: Boolean(opts.clip),
  });
  return { dataUrl: `data:image/png;base64,${data}`, width: Math.round(clip.width), height: Math.round(clip.height) };
}
