// The isolated world's one global, Tabwright: what the separately injected scripts of one frame
// share. The page channel's key (content/page-channel.js, document_start) for the scripts loaded
// later; the request handlers content/main.js dispatches to, which content/reader.js (injected on
// first use) adds to; the secret masking the reader applies; and whether each script has run here
// already (an injection into a frame that has it must not listen twice). Pages cannot see it.
/** @type {any} */
export const tw = globalThis.Tabwright = globalThis.Tabwright ?? { handlers: {} };
