// What differs between the browsers, behind one interface. Implemented by each tree's platform/.
export interface Platform {
  name: 'chrome' | 'firefox';
  /** inject the content scripts into a tab whose page loaded before the extension did */
  injectContent(tabId: number): Promise<void>;
  /** run extension script files in one frame of a tab, on demand (read_page's Readability) */
  injectFiles(tabId: number, files: string[], frameId?: number): Promise<void>;
  /** wire the toolbar button to the side panel / sidebar */
  setupPanel(): void;
}
