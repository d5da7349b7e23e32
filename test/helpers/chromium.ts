import { chromium, type Browser } from 'playwright-core';

/** Debian's headless Chromium with the flags this machine needs (no sandbox, GPU or sync). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
    ],
    headless: true,
  });
}
