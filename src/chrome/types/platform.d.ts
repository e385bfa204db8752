// What differs between the browsers, behind one interface. Implemented by each tree's platform/.
export interface Platform {
  name: 'chrome' | 'firefox';
  /** inject the content scripts into a tab whose page loaded before the extension did */
  injectContent(tabId: number): Promise<void>;
  /** wire the toolbar button to the side panel / sidebar */
  setupPanel(): void;
  /**
   * Remove the extension's Origin header from requests to these origins (configured local model
   * servers such as Ollama, which refuse chrome-extension:// and moz-extension:// origins), and
   * from no others. Replaces the previous list; [] removes the rule.
   */
  setLocalEndpoints(origins: string[]): Promise<void>;
  /** Chrome's Prompt API (the `LanguageModel` global) where the browser has it, else null. */
  languageModel(): import('../providers/builtin.js').LanguageModelAPI | null;
}
