// The bundle model: where the bundle file is and how it is read (one place), the base path every
// target's URL ends with, and each operation as the packages need it (method, path, parameters,
// request bodies, responses, security: bundle-model.mjs, re-exported here). The mock, the docs,
// the contract kit and the reference server read the bundle through here instead of each
// working these out again.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The bundle model without the file system (bundle-model.mjs), for code that runs in a browser too.
export * from './bundle-model.mjs';

const require = createRequire(import.meta.url);

/**
 * YAML is read with this package's `yaml`, loaded only for a YAML file: the reference server
 * bundles this module and reads JSON, and its start-up does not pay for a YAML parser.
 * @param {string} text @returns {any}
 */
function parseYaml(text) {
  return createRequire(defaultBundleFile())('yaml').parse(text);
}

/**
 * A file that `npm run build` writes, where this package publishes it (`@cloudapi/spec/openapi.json`
 * by default; `openapi.yaml`, `openapi.3.0.json`, `openapi.3.0.yaml`), read from the package's
 * `exports` so that it is named before it is built.
 * @param {'openapi.json' | 'openapi.yaml' | 'openapi.3.0.json' | 'openapi.3.0.yaml'} [name]
 * @returns {string}
 */
export function defaultBundleFile(name = 'openapi.json') {
  const manifest = require.resolve('@cloudapi/spec/package.json');
  const target = name.startsWith('openapi.') ? require(manifest).exports?.[`./${name}`] : undefined;
  if (typeof target !== 'string') throw new Error(`@cloudapi/spec publishes no bundle file named ${name}`);
  return join(dirname(manifest), target);
}

/**
 * Reads a bundle: this package's own by default, or a JSON or YAML file. A missing or broken
 * file is an error naming it.
 * @param {string} [file]
 * @returns {any} the OpenAPI document
 */
export function loadBundle(file) {
  const path = file || defaultBundleFile();
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`the bundle ${path} cannot be read (${/** @type {Error} */ (error).message})${file ? '' : ': run `npm run build` first'}`);
  }
  try {
    return /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new Error(`the bundle ${path} is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${/** @type {Error} */ (error).message}`);
  }
}
