// Offers text as a file to save (exports of settings, adapters, skills, history, traces, workflows).

/**
 * @param {string} name the file name offered
 * @param {string} text
 * @param {string} [type] its MIME type (default JSON)
 */
export function saveFile(name, text, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  // The download has the bytes by then; a minute leaves room for a slow "Save as" dialog.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** @param {string} name @param {unknown} data */
export const saveJson = (name, data) => saveFile(name, JSON.stringify(data, null, 2));
