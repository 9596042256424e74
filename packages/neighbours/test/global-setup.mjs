// Vitest global set-up: a Chromium for the browser cases (test-support/chromium.mjs, as every
// browser test: Debian's chromium, installed with apt-get when missing and running as root;
// otherwise the browser cases fail saying how to install it). It never throws, so the raw-socket cases still run.
import { ensureChromium } from '../../../test-support/chromium.mjs';

export default function setup(project) {
  project.provide('chromium', ensureChromium({ log: (line) => console.log(`[neighbours] ${line}`) }));
}
