// Finds Debian's Chromium for the browser tests, installing it with apt-get when it is missing and
// this runs as root with apt available; otherwise says how to install it. Never skips.
// Test files get their browser from ./browser.mjs (one Chromium per Vitest run, see
// ./chromium-setup.mjs); launchChromium() is for a process of its own.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

// As root in a container: no sandbox. The background-networking flags stop Chromium's own
// connections (updates, safe browsing), which a closed network refuses and the test would see.
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export const INSTALL_HINT = 'The browser tests need Chromium and found none at '
  + `${CHROMIUM_CANDIDATES.join(' or ')} (or $CHROMIUM_PATH). Install Debian's chromium: `
  + '`sudo apt-get update && sudo apt-get install -y chromium` (the test set-up does this itself when it runs as root), '
  + 'or set CHROMIUM_PATH to a Chromium or Chrome binary.';

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium binary to use, or null. */
export function findChromium({ env = process.env, candidates = CHROMIUM_CANDIDATES } = {}) {
  if (env.CHROMIUM_PATH) return executable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  return candidates.find(executable) ?? null;
}

function hasAptGet() {
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Returns { path } of a usable Chromium, or { error } saying how to get one. Installs Debian's
 * `chromium` first when none is found, this process is root and apt-get exists.
 */
export function ensureChromium({ log = () => {}, env = process.env, install = true, candidates = CHROMIUM_CANDIDATES } = {}) {
  const found = findChromium({ env, candidates });
  if (found) return { path: found };
  if (env.CHROMIUM_PATH) return { error: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file. ${INSTALL_HINT}` };
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!install || !root || !hasAptGet()) return { error: INSTALL_HINT };

  log('Chromium is missing: installing Debian\'s chromium with apt-get (once per machine)...');
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let output = '';
  // Another package's tests may be installing at the same moment: wait for apt's locks.
  for (const args of [['-o', 'DPkg::Lock::Timeout=600', 'update'], ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', 'chromium']]) {
    const result = spawnSync('apt-get', args, { env: aptEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    output += `${result.stdout ?? ''}${result.stderr ?? ''}`;
    if (result.status !== 0) return { error: `apt-get ${args.join(' ')} failed (exit ${result.status}):\n${output.slice(-3000)}\n${INSTALL_HINT}` };
  }
  const installed = findChromium({ env, candidates });
  return installed ? { path: installed, installed: true } : { error: `apt-get installed chromium but no binary was found.\n${INSTALL_HINT}` };
}

/** A Chromium launched for this process (found or installed as above); throws saying how to get one. */
export async function launchChromium({ log = () => {} } = {}) {
  const found = ensureChromium({ log });
  if (!found.path) throw new Error(found.error);
  return chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS, headless: true });
}
