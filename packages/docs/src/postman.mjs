// The Postman collection (format v2.1) offered beside the bundles on the docs page, converted by
// Postman's own converter (openapi-to-postmanv2) from the bundle's OpenAPI 3.0.3 edition, the
// form that converter reads best. Requests are grouped by tag and filled from the examples; the
// server URL is the {{baseUrl}} variable and the bearer token the {{bearerToken}} variable.
import { createHash } from 'node:crypto';
import Converter from 'openapi-to-postmanv2';
import { operations } from '@cloudapi/spec/walk';
import { makeRunnable } from './postman-flow.mjs';

export const POSTMAN_COLLECTION_FILE = 'cloudapi.postman_collection.json';
export const POSTMAN_SCHEMA_V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

const OPTIONS = {
  folderStrategy: 'Tags',
  parametersResolution: 'Example',
  includeAuthInfoInExample: false,
};

/**
 * The collection of an OpenAPI 3.0 document, given as its JSON text.
 * @param {string} openapi30
 * @returns {Promise<Record<string, any>>}
 */
export function postmanCollection(openapi30) {
  return new Promise((resolve, reject) => {
    Converter.convertV2({ type: 'string', data: openapi30 }, OPTIONS, (error, result) => {
      if (error) return reject(error);
      if (!result.result) return reject(new Error(`openapi-to-postmanv2 refused the document: ${result.reason}`));
      // Plain JSON (the converter hands out SDK objects), with what the converter leaves out.
      const collection = JSON.parse(JSON.stringify(result.output[0].data));
      const { info } = JSON.parse(openapi30);
      if (info.version) collection.info.version = info.version;
      // The same id for the same release, so that importing a rebuilt file updates the collection.
      const digest = createHash('sha256').update(`${collection.info.name} ${collection.info.version ?? ''}`).digest('hex');
      collection.info._postman_id = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-4${digest.slice(13, 16)}-a${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
      const variables = collection.variable ?? [];
      if (!variables.some((variable) => variable.key === 'bearerToken')) variables.push({ key: 'bearerToken', value: '', type: 'string' });
      collection.variable = variables;
      const document = JSON.parse(openapi30);
      disableOptionalHeaders(collection.item, optionalHeaderNames(document));
      resolve(makeRunnable(collection, document));
    });
  });
}

/**
 * The converter fills an optional header with the spec's example (X-Filter on the lists), or
 * leaves it empty, which Postman would send as is (and the API refuses an empty X-Filter: not
 * JSON). Either way it stays in the request, disabled, for a reader to fill in or turn on: a list
 * answers unfiltered unless asked.
 * @param {any[]} items @param {Set<string>} optional the lowercased names of optional header parameters
 */
function disableOptionalHeaders(items = [], optional) {
  for (const item of items) {
    if (item.item) disableOptionalHeaders(item.item, optional);
    for (const header of item.request?.header ?? []) {
      if (header.value === '' || header.value === undefined || optional.has(String(header.key).toLowerCase())) header.disabled = true;
    }
  }
}

/** The lowercased names of the header parameters no operation requires. @param {any} document @returns {Set<string>} */
function optionalHeaderNames(document) {
  const headers = [...operations(document)].flatMap((op) => op.parameters).filter((p) => p.in === 'header');
  const required = new Set(headers.filter((p) => p.required).map((p) => p.name.toLowerCase()));
  return new Set(headers.map((p) => p.name.toLowerCase()).filter((name) => !required.has(name)));
}
