/**
 * wakit drives the Chromium installed on this machine (`engine.executablePath`, or the usual
 * install locations); puppeteer never downloads a browser of its own.
 * @type {import("puppeteer").Configuration}
 */
module.exports = { skipDownload: true };
