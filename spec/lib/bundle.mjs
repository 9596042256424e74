// The bundle model: where the bundle file is and how it is read (one place), the base path every
// target's URL ends with, and each operation as the packages need it (method, path, parameters,
// request bodies, responses, security: bundle-model.mjs, re-exported here). The mock, the docs,
// the contract kit and the reference server read the bundle through here instead of each
// working these out again.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

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

/** The bundle that `npm run build` writes, as this package publishes it (`@cloudapi/spec/openapi.json`). */
export function defaultBundleFile() {
  return require.resolve('@cloudapi/spec/openapi.json');
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
