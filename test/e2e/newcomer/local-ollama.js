// The "Ollama on this computer" the first run finds: the harness's stand-in at localhost:11434
// (harness/local-models.js) passing every request to the mock LLM server, which speaks Ollama's
// own protocol (/api/tags, /api/show, /api/chat) and OpenAI's, so whichever the extension uses is
// answered from the same script. Records each path it was asked for.
import http from 'node:http';
import { localModels } from '../harness/local-models.js';

/** @param {string} target the mock LLM's origin (http://127.0.0.1:port) */
export async function serveLocalOllama(target) {
  const local = await localModels();
  /** @type {string[]} */
  const seen = [];
  local.serve('ollama', (req, res, path) => {
    seen.push(`${req.method} ${path}`);
    const url = new URL(path, target);
    const fwd = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    fwd.on('error', () => { res.writeHead(502).end(); });
    req.pipe(fwd);
  });
  return { seen, off: () => local.off('ollama') };
}
