// Vitest global set-up: one Chromium for the whole run of a package's tests, whichever files need
// it, instead of one launch per file. It makes sure Chromium is there (./chromium.mjs, installing
// Debian's when root), starts it as a browser server on 127.0.0.1 and a free port, and hands its
// address to the test files, which connect through ./browser.mjs, each in contexts of its own.
// It never throws: a missing browser fails the tests that need one, with the message saying how
// to install it, and leaves the other tests to run.
//
//   globalSetup: ['../../test-support/chromium-setup.mjs']   (in a package's vitest config)
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from './chromium.mjs';

export default async function setup(project) {
  const started = Date.now();
  const found = ensureChromium({ log: (line) => console.log(`[browser tests] ${line}`) });
  if (found.installed) console.log(`[browser tests] installed ${found.path} in ${Math.round((Date.now() - started) / 1000)} s`);
  if (!found.path) {
    project.provide('chromium', { error: found.error });
    return undefined;
  }
  // host: Playwright's default is every interface; the browser must answer nobody else.
  const server = await chromium.launchServer({ executablePath: found.path, args: CHROMIUM_ARGS, headless: true, host: '127.0.0.1', port: 0 });
  project.provide('chromium', { path: found.path, wsEndpoint: server.wsEndpoint() });
  return () => server.close();
}
