import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The bundle written by `npm run build` (tests run after the build: turbo's test dependsOn
// build), read the way every package reads it.
export { loadBundle } from '../lib/bundle.mjs';
