#!/usr/bin/env node
// `npm run smoke:node`: the published packages on every Node release line we support. Packs every
// publishable workspace, installs the tarballs alone into a fresh folder per Node version (with the
// native SQLite driver for that version), and runs the consumer smoke there
// (packages/release/smoke/consumer-smoke.mjs: the installed server, mock, client and kit).
// Node 20 is the one running this script; 22 and 24 come from the npm registry (the per-platform
// package of its `node` package), the only place this machine can get them from. .ci/run calls it
// before npm test.
//
//   node scripts/node-matrix.mjs [--versions 20,22,24] [--keep]
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { command, parse } from '@cloudapi/spec/cli';
import { workspaces } from './workspaces.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const options = parse(command('node-matrix', 'Installs the packed packages on Node 20, 22 and 24 and runs the consumer smoke on each.')
  .option('--versions <list>', 'Node major versions, comma-separated', '20,22,24')
  .option('--keep', 'keep the scratch folder'));
const versions = options.versions.split(',').map((v) => v.trim()).filter(Boolean);

// npm_* variables from `npm run` would point the consumer's npm back at this workspace.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));

function sh(cmd, args, opts = {}) {
  return run(cmd, args, opts).stdout;
}

/** Runs a command to its end; throws with its output when it fails. */
function run(cmd, args, opts = {}) {
  const result = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env, ...opts });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${result.status ?? result.signal}\n${(result.stdout ?? '').slice(-3000)}\n${(result.stderr ?? '').slice(-3000)}`);
  }
  return result;
}

/**
 * What a consumer's install of the tarballs must not show: an engine warning (npm's EBADENGINE), or
 * on Node 22 and later a native module to build (the server's drivers: better-sqlite3 12 is Node
 * 20's, behind @cloudapi/sqlite-node20; 13 ships its binaries). Empty when all is well.
 */
function installProblems(app, output, major) {
  const problems = output.split('\n').filter((line) => /EBADENGINE/.test(line));
  if (Number(major) >= 22) {
    const lock = JSON.parse(readFileSync(path.join(app, 'node_modules', '.package-lock.json'), 'utf8'));
    const builds = Object.entries(lock.packages).filter(([where, entry]) => entry.hasInstallScript && existsSync(path.join(app, where, 'binding.gyp')));
    problems.push(...builds.map(([where]) => `${where} would be built from source`));
  }
  return problems;
}

/**
 * A Node runtime of a major version, as { binary, headers }: this one (its headers from the npm
 * configuration's nodedir or /usr), or the registry's build of that version. The registry's `node`
 * package (`npx -p node@22`) installs its binary through the per-platform package
 * `node-<platform>-<arch>`; that package is installed here directly, since it also holds the
 * version's C headers, which node-gyp needs to build better-sqlite3 for that ABI.
 */
function runtime(major, scratch) {
  if (process.versions.node.split('.')[0] === major) {
    return { binary: process.execPath, headers: headersFor(process.version, [process.env.npm_config_nodedir, path.dirname(path.dirname(process.execPath)), '/usr', '/usr/local']) };
  }
  const prefix = path.join(scratch, `node${major}-runtime`);
  const name = `node-${process.platform}-${process.arch}`;
  sh(npm, ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', `${name}@${major}`], { cwd: scratch });
  const home = path.join(prefix, 'node_modules', name);
  const binary = path.join(home, 'bin', 'node');
  const version = execFileSync(binary, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
  return { binary, headers: headersFor(version, [home]) };
}

/** The first folder whose include/node/node_version.h is of that version's major line. */
function headersFor(version, candidates) {
  for (const dir of candidates.filter(Boolean)) {
    const header = path.join(dir, 'include', 'node', 'node_version.h');
    if (!existsSync(header)) continue;
    const major = /#define NODE_MAJOR_VERSION (\d+)/.exec(readFileSync(header, 'utf8'))?.[1];
    if (`v${major}` === version.split('.')[0]) return dir;
  }
  throw new Error(`no C headers of Node ${version} in ${candidates.filter(Boolean).join(', ')}`);
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'cloudapi-node-matrix-'));
const results = [];
let failed = false;
try {
  console.log('▸ building and packing the publishable packages');
  sh(process.execPath, [path.join(root, 'node_modules', 'turbo', 'bin', 'turbo'), 'run', 'build', '--output-logs=errors-only'], { cwd: root });
  const tarballs = path.join(scratch, 'tarballs');
  mkdirSync(tarballs);
  const publishable = workspaces(root).filter(({ manifest }) => !manifest.private);
  sh(npm, ['pack', '--silent', '--pack-destination', tarballs, ...publishable.flatMap(({ dir }) => ['-w', dir])], { cwd: root });
  const packed = readdirSync(tarballs).map((name) => path.join(tarballs, name));

  for (const major of versions) {
    const started = Date.now();
    const app = path.join(scratch, `node${major}`);
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: `consumer-node${major}`, private: true, type: 'module' }, null, 2)}\n`);
    cpSync(path.join(root, 'packages', 'release', 'smoke', 'consumer-smoke.mjs'), path.join(app, 'smoke.mjs'));
    try {
      const { binary, headers } = runtime(major, scratch);
      const nodeEnv = { ...env, PATH: `${path.dirname(binary)}${path.delimiter}${env.PATH}`, npm_config_nodedir: headers };
      // A consumer never installs @cloudapi/sqlite-node20 itself: the server's optional dependency
      // on it is skipped on Node 22 and later (its engines say Node 20), so its tarball is given on 20 only.
      const tarballsFor = packed.filter((file) => Number(major) < 22 || !path.basename(file).startsWith('cloudapi-sqlite-node20-'));
      console.log(`▸ Node ${major} (${binary}): installing ${tarballsFor.length} tarballs`);
      const install = run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballsFor], { cwd: app, env: nodeEnv });
      const problems = installProblems(app, `${install.stdout}\n${install.stderr}`, major);
      if (problems.length) throw new Error(`the install of the tarballs on Node ${major}:\n${problems.join('\n')}`);
      // Node 20's SQLite driver (better-sqlite3 12, through @cloudapi/sqlite-node20) is built for
      // that ABI by its own install step; Node 22 and later load better-sqlite3 13, whose Node-API
      // binaries ship in the package (packages/server/src/core/store/sqlite.ts says why).
      if (Number(major) < 22) sh(npm, ['rebuild', 'better-sqlite3'], { cwd: app, env: nodeEnv });
      const line = sh(binary, ['smoke.mjs'], { cwd: app, env: nodeEnv }).trim().split('\n').at(-1);
      const seen = JSON.parse(line);
      results.push({ major, ok: true, seconds: (Date.now() - started) / 1000, seen });
      console.log(`✔ Node ${seen.node}: server ${seen.server.regions}/${seen.server.create}, mock ${seen.mock.regions} regions, kit ${seen.kit} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    } catch (error) {
      failed = true;
      results.push({ major, ok: false, error: error.message });
      console.error(`✖ Node ${major}: ${error.message}`);
    }
  }
} finally {
  if (!options.keep) rmSync(scratch, { recursive: true, force: true });
}
console.log(`\nnode matrix: ${results.filter((r) => r.ok).length} of ${versions.length} Node versions passed the consumer smoke (${results.map((r) => `${r.major}: ${r.ok ? 'ok' : 'failed'}`).join(', ')})`);
process.exit(failed || results.length !== versions.length ? 1 : 0);
