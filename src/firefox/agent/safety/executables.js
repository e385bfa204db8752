// Downloads that run when opened (browser-free): programs, installers, packages and scripts, by file
// name, MIME type and, when the platform read them, the first bytes. Such a download always asks,
// on any site (docs/SECURITY.md). So does a document whose server will not say it is one: the
// browsers give no byte of a download before it is decided, so a program named invoice.pdf and sent
// as application/octet-stream cannot be told from the PDF.
/** @import { HeldRequest } from '../../types/safety' */

/** Extensions of files that run, install or are executed by a common interpreter. */
const EXTENSIONS = new Set([
  'exe', 'msi', 'msix', 'msp', 'appx', 'appxbundle', 'dmg', 'pkg', 'mpkg', 'app', 'deb', 'rpm', 'snap', 'flatpak', 'appimage', 'run', 'bin',
  'sh', 'bash', 'zsh', 'csh', 'ksh', 'command', 'bat', 'cmd', 'ps1', 'psm1', 'vbs', 'vbe', 'js', 'jse', 'mjs', 'wsf', 'wsh', 'hta', 'jar', 'apk', 'aab', 'xapk', 'ipa',
  'scr', 'com', 'pif', 'cpl', 'msc', 'lnk', 'reg', 'dll', 'sys', 'ocx', 'py', 'pyw', 'pl', 'rb', 'php', 'scpt', 'applescript', 'workflow', 'action', 'xpi', 'crx', 'vsix', 'iso', 'img',
]);

/** MIME types of the same. */
const MIME = /^(application\/(x-msdownload|x-msdos-program|x-ms-installer|x-msi|x-dosexec|x-executable|x-elf|x-mach-binary|x-sh|x-shellscript|x-csh|x-bat|x-msdos-batch|x-powershell|vnd\.microsoft\.portable-executable|vnd\.android\.package-archive|java-archive|x-java-archive|x-apple-diskimage|x-newton-compatible-pkg|vnd\.debian\.binary-package|x-debian-package|x-rpm|x-redhat-package-manager|x-xpinstall|x-chrome-extension|x-iso9660-image|hta|x-python-code|javascript|x-javascript|ecmascript)|text\/(x-sh|x-shellscript|x-python|javascript|ecmascript|x-script\.\w+|vbscript))\b/i;

/** Magic numbers (base64 of the first bytes): MZ (Windows PE), ELF, Mach-O, #! (a script), PK (a jar or apk is a zip: by name only). */
const MAGIC = [
  [0x4d, 0x5a], [0x7f, 0x45, 0x4c, 0x46], [0xcf, 0xfa, 0xed, 0xfe], [0xce, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe], [0x23, 0x21],
];

/** Files a person opens expecting a viewer (a document, a picture, a sound or a film), by extension. */
const DOCUMENTS = new Set(['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'txt', 'csv', 'jpg', 'jpeg', 'png', 'gif', 'webp', 'heic', 'mp3', 'wav', 'mp4', 'mov']);

/** Declared types that say nothing of the content ("some bytes"). */
const UNDECLARED = /^(?:application\/(?:octet-stream|x-download|force-download|download|unknown|binary)|binary\/octet-stream)$/i;

/** @param {string} name */
function extensionOf(name) {
  const base = name.split(/[/\\]/).pop() ?? '';
  const m = /\.([A-Za-z0-9]+)$/.exec(base);
  return m ? m[1].toLowerCase() : '';
}

/** @param {string} [b64] */
function magicOf(b64) {
  if (!b64) return false;
  let bytes;
  try { bytes = Uint8Array.from(atob(b64.slice(0, 16)), (c) => c.charCodeAt(0)); } catch { return false; }
  return MAGIC.some((m) => m.every((x, i) => bytes[i] === x));
}

/**
 * Why a download runs when opened ('a program (.exe)'), or null when it does not look like one.
 * HeldRequest.mime may carry the first bytes after a ";base64," (the platform's sniff), e.g. "application/octet-stream;base64,TVqQ".
 * @param {HeldRequest} req @returns {string | null}
 */
export function executableKind(req) {
  let path = '';
  try { path = decodeURIComponent(new URL(req.url).pathname); } catch { /* no URL */ }
  const ext = extensionOf(req.filename ?? '') || extensionOf(path);
  if (ext && EXTENSIONS.has(ext)) return `a program or script (.${ext})`;
  const [mime, sniff] = (req.mime ?? '').split(';base64,');
  if (MIME.test(mime.trim())) return `a program or script (${mime.trim()})`;
  if (magicOf(sniff)) return 'a program or script (its first bytes are those of one)';
  return null;
}

/**
 * A document by its name whose server declared no document type ('"invoice.pdf", sent as
 * application/octet-stream'), when no first bytes were read to tell; else null. It may be the
 * document, or a program under a document's name.
 * @param {HeldRequest} req @returns {string | null}
 */
export function undeclaredDocument(req) {
  let path = '';
  try { path = decodeURIComponent(new URL(req.url).pathname); } catch { /* no URL */ }
  const name = (req.filename ?? '') || (path.split('/').pop() ?? '');
  const ext = extensionOf(name);
  const [mime, sniff] = (req.mime ?? '').split(';base64,');
  if (!ext || !DOCUMENTS.has(ext) || sniff || !UNDECLARED.test(mime.trim())) return null;
  return `"${name}", sent as ${mime.trim()}`;
}
