import mime from 'mime-types';
import { extensionFor } from '../../src/index.js';

/**
 * Extensions never used for saved media, whatever the declared MIME type: content a browser, shell
 * or OS would run when the file is opened or served (HTML, SVG, scripts, executables). Such media
 * is saved as `.bin`.
 */
const ACTIVE = new Set([
  'html',
  'htm',
  'shtml',
  'xhtml',
  'xht',
  'mht',
  'mhtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'xslt',
  'js',
  'mjs',
  'cjs',
  'php',
  'phtml',
  'sh',
  'bash',
  'csh',
  'ksh',
  'pl',
  'py',
  'rb',
  'cgi',
  'exe',
  'dll',
  'com',
  'bat',
  'cmd',
  'msi',
  'ps1',
  'vbs',
  'jar',
  'apk',
  'deb',
  'rpm',
  'dmg',
  'hta',
  'swf',
  'application',
  'elc',
]);

/**
 * The file extension for a MIME type, never from the sender's file name: the usual one for the
 * media types WhatsApp carries (`audio/mpeg` → `mp3`, `audio/ogg` → `ogg`), else the maintained
 * mime-types table; unknown types and active content → `bin`.
 */
export function extensionForMime(mimetype: string | undefined): string {
  const type = mimetype?.split(';')[0]?.trim().toLowerCase();
  if (!type) return 'bin';
  const usual = extensionFor(type);
  const ext = usual !== 'bin' ? usual : mime.extension(type);
  if (!ext || ACTIVE.has(ext)) return 'bin';
  return ext;
}
