// How the browser tests find their browser (test-support/chromium.mjs), and what they say when
// there is none.
import { describe, expect, it } from 'vitest';
import { CHROMIUM_CANDIDATES, ensureChromium, findChromium, INSTALL_HINT } from '../../../test-support/chromium.mjs';

describe('finding Chromium', () => {
  it('looks for Debian\'s chromium and honours CHROMIUM_PATH', () => {
    expect(CHROMIUM_CANDIDATES[0]).toBe('/usr/bin/chromium');
    expect(findChromium({ env: { CHROMIUM_PATH: process.execPath } })).toBe(process.execPath);
    expect(findChromium({ env: { CHROMIUM_PATH: '/nonexistent/chromium' } })).toBeNull();
    expect(findChromium({ env: {}, candidates: ['/nonexistent/chromium', process.execPath] })).toBe(process.execPath);
  });

  it('fails with a message saying how to install it when there is none and it may not install', () => {
    const result = ensureChromium({ env: {}, candidates: ['/nonexistent/chromium'], install: false });
    expect(result).toEqual({ error: INSTALL_HINT });
    expect(INSTALL_HINT).toContain('apt-get install -y chromium');
    expect(ensureChromium({ env: { CHROMIUM_PATH: '/nonexistent/chromium' } }).error).toMatch(/^CHROMIUM_PATH=\/nonexistent\/chromium is not an executable file\./);
  });
});
