// The tarballs of the publishable workspaces, as their `pack` task made them (scripts/pack.mjs:
// <workspace>/.pack/), for the tests that install packages as a consumer does. A test task that
// uses them names those pack tasks in its `dependsOn` (packages/release/turbo.json), so Turbo packs
// each package once per `npm test`, before the tests that need it. Run directly with Vitest, a
// test finds them where the last `npx turbo run pack` left them, and fails saying so when one is
// missing or a file that went into it has changed since.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACK_DIR, PACK_REPORT, sha1Of } from '../scripts/pack.mjs';
import { workspaces } from '../scripts/workspaces.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @typedef {{ name: string, dir: string, manifest: Record<string, any>, tarball: string, files: string[], size: number, unpackedSize: number }} Packed
 */

/**
 * The tarball of each named workspace (`@cloudapi/msw`, …), or of every publishable one.
 * @param {string[]} [names]
 * @returns {Packed[]}
 */
export function packedTarballs(names) {
  const publishable = workspaces(repoRoot).filter(({ manifest }) => !manifest.private);
  return (names ?? publishable.map(({ manifest }) => manifest.name)).map((name) => {
    const workspace = publishable.find(({ manifest }) => manifest.name === name);
    if (!workspace) throw new Error(`${name} is not a publishable workspace of this repository`);
    const home = path.join(repoRoot, workspace.dir);
    const where = `${workspace.dir}/${PACK_DIR}`;
    const fix = `run \`npx turbo run pack --filter=${name}\` (npm test and \`npx turbo run test\` pack first)`;
    if (!existsSync(path.join(home, PACK_DIR, PACK_REPORT))) throw new Error(`${where} holds no tarball: ${fix}.`);
    const report = JSON.parse(readFileSync(path.join(home, PACK_DIR, PACK_REPORT), 'utf8'));
    const tarball = path.join(home, PACK_DIR, report.filename);
    if (!existsSync(tarball)) throw new Error(`${where}/${report.filename} is missing: ${fix}.`);
    // By content, not by date: Turbo restores unchanged build outputs with new dates.
    const changed = report.files.find((file) => !existsSync(path.join(home, file.path)) || sha1Of(file.path, home) !== file.sha1);
    if (changed) throw new Error(`${workspace.dir}/${changed.path} has changed since ${where}/${report.filename} was packed: ${fix}.`);
    const files = report.files.map((file) => file.path);
    return { name, dir: workspace.dir, manifest: workspace.manifest, tarball, files, size: report.size, unpackedSize: report.unpackedSize };
  });
}

/**
 * The server's SQLite driver (better-sqlite3 12 on Node 20) is a native module built from source
 * by its own install step: minutes of a shared machine's CPU, as no prebuilt binary can be
 * downloaded here. That step is better-sqlite3's, and the workspace's own `npm install` (CI's
 * fresh one included) has just run it for the same version and Node: a consumer folder installed
 * with --ignore-scripts gets that binding copied in. Another version gets the real build.
 * @param {string} app a folder whose node_modules holds better-sqlite3
 * @param {(command: string, args: string[], cwd: string) => Promise<{ code: number, stdout: string, stderr: string }>} run
 */
export async function provideSqliteBinding(app, run) {
  const installed = path.join(app, 'node_modules', 'better-sqlite3');
  const workspace = path.dirname(createRequire(path.join(repoRoot, 'packages', 'server', 'package.json')).resolve('better-sqlite3/package.json'));
  const binding = path.join('build', 'Release', 'better_sqlite3.node');
  const version = (folder) => JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).version;
  if (existsSync(path.join(workspace, binding)) && version(workspace) === version(installed)) {
    mkdirSync(path.join(installed, 'build', 'Release'), { recursive: true });
    copyFileSync(path.join(workspace, binding), path.join(installed, binding));
    return 'copied';
  }
  const rebuild = await run('npm', ['rebuild', 'better-sqlite3'], app);
  if (rebuild.code !== 0) throw new Error(`npm rebuild better-sqlite3 exited ${rebuild.code}\n${rebuild.stdout.slice(-3000)}\n${rebuild.stderr.slice(-3000)}`);
  return 'built';
}
