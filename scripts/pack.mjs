#!/usr/bin/env node
// The `pack` task of a publishable workspace (`npx turbo run pack`; run in the workspace's folder):
// its tarball as npm would publish it (`npm pack`, prepack included) in .pack/, beside npm's report
// of it (.pack/pack.json: name, version, filename, sizes, files, each with the sha1 of what went
// in, by which a test tells a stale tarball from a current one). The tests that install the
// packages as a consumer does (release, msw, cli) take them from there through
// test-support/tarballs.mjs, so one `npm test` packs each package once, and Turbo replays the
// tarball from its cache while nothing that goes into it changed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const PACK_DIR = '.pack';
export const PACK_REPORT = 'pack.json';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The sha1 of a file (relative to the working folder), as pack.json records it. */
export const sha1Of = (file, dir = '.') => createHash('sha1').update(readFileSync(path.join(dir, file))).digest('hex');

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = path.resolve(PACK_DIR);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  // npm_* variables of the `npm run pack` around this would point npm at the workspace root.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  const stdout = execFileSync(npm, ['pack', '--json', '--pack-destination', out], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] });
  // A prepack script's own output comes first; npm's report is the JSON array after it.
  const [report] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  for (const file of report.files) file.sha1 = sha1Of(file.path);
  writeFileSync(path.join(out, PACK_REPORT), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`✔ ${report.name}@${report.version} → ${path.join(PACK_DIR, report.filename)} (${(report.size / 1024).toFixed(0)} KiB, ${report.files.length} files)`);
}
