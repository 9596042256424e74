// The spec's file layout is mechanical, so a designer always knows where a thing lives:
// - the path item of `/a/b/{c}` is paths/a/a_b_{c}.yaml (folder = first segment);
// - every file under paths/ and components/ is used, none is left behind;
// - a component file's name is its component name in the bundle (Volume.yaml → Volume), which
//   needs names unique per kind, or the bundler would rename one to `Volume-2`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadBundle, specDir } from './helpers.mjs';

const root = parse(readFileSync(path.join(specDir, 'openapi.yaml'), 'utf8'));
const bundle = loadBundle();

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

function pathItemFile(apiPath) {
  const segments = apiPath.replace(/^\//, '').split('/');
  return `paths/${segments[0]}/${segments.join('_')}.yaml`;
}

describe('spec layout', () => {
  it('keeps each path item in the file named after its path', () => {
    const wrong = Object.entries(root.paths)
      .filter(([apiPath, item]) => item.$ref !== pathItemFile(apiPath))
      .map(([apiPath, item]) => `${apiPath}: $ref is ${item.$ref}, expected ${pathItemFile(apiPath)}`);
    expect(wrong).toEqual([]);
  });

  it('uses every path item file', () => {
    const used = new Set(Object.values(root.paths).map((item) => path.join(specDir, item.$ref)));
    const unused = filesUnder(path.join(specDir, 'paths')).filter((file) => !used.has(file)).map((f) => path.relative(specDir, f));
    expect(unused, 'path item files that spec/openapi.yaml does not reference').toEqual([]);
  });

  it('names each component after its file and uses every component file', () => {
    const problems = [];
    // The bundle step inlines the shared X-Filter parameter into each list and points it at schemas
    // generated from the marks, kept apart in components.x-filter-schemas (lib/filters.mjs): those
    // two files leave no component.
    const specialised = new Set(['XFilter', 'Filter']);
    for (const kind of readdirSync(path.join(specDir, 'components'))) {
      const files = filesUnder(path.join(specDir, 'components', kind));
      const byName = new Map();
      for (const file of files) {
        const name = path.basename(file, '.yaml');
        if (byName.has(name)) problems.push(`components/${kind}: ${name}.yaml exists twice (${path.relative(specDir, byName.get(name))}, ${path.relative(specDir, file)}); component names must be unique per kind`);
        byName.set(name, file);
        if ((!bundle.components[kind] || !(name in bundle.components[kind])) && !specialised.has(name)) {
          problems.push(`${path.relative(specDir, file)} is not used by any operation (or was renamed by the bundler)`);
        }
      }
      for (const name of Object.keys(bundle.components[kind] || {})) {
        if (!byName.has(name)) problems.push(`bundle component ${kind}.${name} has no file components/${kind}/<area>/${name}.yaml`);
      }
    }
    expect(problems).toEqual([]);
  });
});
