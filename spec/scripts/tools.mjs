// Locates and runs the real CLIs this package depends on (Redocly, Spectral) with node, from
// the spec directory, with telemetry, update notices and colours off.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function binOf(pkg, name) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name];
  return path.join(path.dirname(manifestPath), bin);
}

export function runTool(pkg, name, args, { cwd = specDir } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binOf(pkg, name), ...args], {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Redocly prints a boxed Node.js deprecation banner on Node 20; it is noise in our reports.
export function withoutBanners(text) {
  return text.replace(/\s*╔[\s\S]*?╝\n?/g, '\n').trim();
}
