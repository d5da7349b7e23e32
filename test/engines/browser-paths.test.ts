import { expect } from 'chai';
import {
  browserPaths,
  resolveExecutablePath,
  type BrowserEnvironment,
} from '../../src/engines/wwebjs/browser.js';
import { isWakitError, type WakitError } from '../../src/errors/index.js';

function on(
  platform: NodeJS.Platform,
  files: string[],
  env: NodeJS.ProcessEnv = {},
): BrowserEnvironment {
  return { env, platform, isRoot: false, isExecutable: (file) => files.includes(file) };
}

function notFound(environment: BrowserEnvironment): WakitError {
  try {
    resolveExecutablePath({}, environment);
  } catch (error) {
    if (isWakitError(error, 'BROWSER_NOT_FOUND')) return error;
    throw error;
  }
  throw new Error('a browser was found');
}

describe('Chromium on macOS, Windows and Linux', () => {
  it('finds Chrome or Chromium in /Applications and ~/Applications on macOS', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(resolveExecutablePath({}, on('darwin', [chrome]))).to.equal(chrome);
    const mine = '/Users/ada/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(resolveExecutablePath({}, on('darwin', [mine], { HOME: '/Users/ada' }))).to.equal(mine);
  });

  it('finds Chrome in Program Files or the user’s LocalAppData on Windows', () => {
    const env = {
      PROGRAMFILES: 'C:\\Program Files',
      'PROGRAMFILES(X86)': 'C:\\Program Files (x86)',
      LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local',
    };
    const system = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(resolveExecutablePath({}, on('win32', [system], env))).to.equal(system);
    const user = 'C:\\Users\\ada\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe';
    expect(resolveExecutablePath({}, on('win32', [user], env))).to.equal(user);
    expect(browserPaths('win32', env)).to.include(
      'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
    );
  });

  it('says which paths were tried and how to set engine.executablePath, per platform', () => {
    const mac = notFound(on('darwin', []));
    expect(mac.message)
      .to.include('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome')
      .and.include('"executablePath"')
      .and.include('brew install');
    expect(mac.details?.searched).to.deep.equal(browserPaths('darwin', {}));

    const win = notFound(on('win32', [], { PROGRAMFILES: 'D:\\Apps' }));
    expect(win.message).to.include('D:\\Apps\\Google\\Chrome\\Application\\chrome.exe');
    expect(win.message).to.include('engine').and.include('executablePath');

    const linux = notFound(on('linux', []));
    expect(linux.message).to.include('/usr/bin/chromium').and.include('apt-get install chromium');
  });
});
