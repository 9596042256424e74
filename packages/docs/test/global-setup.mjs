// Vitest global set-up: makes sure a Chromium is there for the browser test (see
// support/chromium.mjs). It never throws: a missing browser fails the browser test, with the
// message saying how to install one, and leaves the other tests to run.
import { ensureChromium } from './support/chromium.mjs';

export default function setup(project) {
  const started = Date.now();
  const chromium = ensureChromium({ log: (line) => console.log(`[docs tests] ${line}`) });
  if (chromium.installed) console.log(`[docs tests] installed ${chromium.path} in ${Math.round((Date.now() - started) / 1000)} s`);
  project.provide('chromium', chromium);
}
