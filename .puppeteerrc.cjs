/**
 * wakit uses the system Chromium (Debian `chromium`, `/usr/bin/chromium`) and never lets
 * puppeteer download a browser of its own.
 * @type {import("puppeteer").Configuration}
 */
module.exports = {
  skipDownload: true,
};
