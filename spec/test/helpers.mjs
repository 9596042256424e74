import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const bundlePath = path.join(specDir, 'dist', 'openapi.json');

/** The bundle written by `npm run build`; tests run after the build (turbo's test dependsOn build). */
export function loadBundle() {
  if (!existsSync(bundlePath)) throw new Error(`${bundlePath} is missing: run \`npm run build\` first (npm test does it through turbo).`);
  return JSON.parse(readFileSync(bundlePath, 'utf8'));
}
