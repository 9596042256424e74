// The browser of a test file: a connection to the Chromium that ./chromium-setup.mjs started for
// the Vitest run (a package's config lists it in globalSetup), or, in a package without that
// set-up, a Chromium launched for this file. Either way `close()` in afterAll ends what the file
// holds: the connection (and every context it opened) or the browser it launched.
import { chromium } from 'playwright-core';
import { inject } from 'vitest';
import { launchChromium } from './chromium.mjs';

/** @returns {Promise<import('playwright-core').Browser>} */
export async function openBrowser() {
  const shared = inject('chromium');
  if (!shared) return launchChromium({ log: (line) => console.log(`[browser tests] ${line}`) });
  if (shared.error) throw new Error(shared.error);
  return chromium.connect(shared.wsEndpoint);
}
