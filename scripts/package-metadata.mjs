#!/usr/bin/env node
// Keeps the publishing fields of every publishable workspace in step with the root package.json:
// licence, repository (with the package's folder), homepage, bugs, engines, publishConfig, and
// internal dependencies as caret ranges of the sibling's current version. A workspace marked
// "private" (CONTRIBUTING.md says which stay private and why) gets the licence, repository,
// engines and ranges only.
//
//   node scripts/package-metadata.mjs          rewrite the package.json files that differ
//   node scripts/package-metadata.mjs --check  print what differs and exit 1, change nothing
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspaces } from './workspaces.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rootManifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const repositoryUrl = rootManifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

// The order fields are written in: what a reader of the registry page looks for first.
const ORDER = ['name', 'version', 'private', 'description', 'keywords', 'homepage', 'bugs', 'repository', 'license',
  'author', 'type', 'sideEffects', 'main', 'module', 'types', 'exports', 'bin', 'files', 'engines', 'scripts',
  'dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'devDependencies', 'publishConfig'];

// Packages whose own engines are the point of them: npm installs an optional dependency only where
// its engines match (@cloudapi/sqlite-node20, the server's SQLite driver on Node 20 alone).
const OWN_ENGINES = new Set(['@cloudapi/sqlite-node20']);

function ordered(manifest) {
  const keys = [...ORDER.filter((key) => key in manifest), ...Object.keys(manifest).filter((key) => !ORDER.includes(key))];
  return Object.fromEntries(keys.map((key) => [key, manifest[key]]));
}

/** The manifest as it should be, given the versions of every workspace. */
export function expectedManifest(manifest, dir, versions) {
  const next = {
    ...manifest,
    repository: { type: 'git', url: rootManifest.repository.url, directory: dir },
    license: rootManifest.license,
    engines: OWN_ENGINES.has(manifest.name) ? manifest.engines : { ...manifest.engines, node: rootManifest.engines.node },
  };
  if (!manifest.private) {
    Object.assign(next, {
      homepage: `${repositoryUrl}/tree/main/${dir}#readme`,
      bugs: { url: `${repositoryUrl}/issues` },
      publishConfig: { access: 'public', provenance: true },
    });
  }
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'devDependencies']) {
    if (!next[field]) continue;
    next[field] = Object.fromEntries(Object.entries(next[field]).map(([name, range]) =>
      [name, versions.has(name) ? `^${versions.get(name)}` : range]));
  }
  return ordered(next);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const all = workspaces(root);
  const versions = new Map(all.map(({ manifest }) => [manifest.name, manifest.version]));
  let differ = 0;
  for (const { dir, manifest, file } of all) {
    const text = `${JSON.stringify(expectedManifest(manifest, dir, versions), null, 2)}\n`;
    if (text === readFileSync(file, 'utf8')) continue;
    differ += 1;
    if (check) console.error(`✖ ${dir}/package.json differs from its publishing fields: run node scripts/package-metadata.mjs`);
    else { writeFileSync(file, text); console.log(`✔ ${dir}/package.json`); }
  }
  if (check && differ) process.exit(1);
}
