// Prism's engine (@stoplight/prism-http: router, validator, mocker, proxy forwarder) called in
// process by the front layer, which takes the place of Prism's thin HTTP server
// (@stoplight/prism-http-server): one HTTP parse per request, and the front layer sees Prism's
// answer, violations and errors as values instead of re-reading them from a second HTTP hop.
//
// Loading this module adjusts Prism for the whole process:
// - @faker-js/faker's index loads every locale (most of Prism's start-up); Prism uses only English,
//   loaded when a generated value first needs it; the Postman collection transformer (and its
//   library) loads only if Prism is ever given a collection;
// - generated objects carry only the fields their schemas declare (json-schema-faker fillProperties);
// - every generated body is checked against its schema and the parts that break it regenerated
//   (generation.mjs): Prism's mocker calls the generator through its module's exports, so
//   replacing that export is enough, and the dynamic-data test fails if an upgrade changes it.
import { createRequire } from 'node:module';
import { createAjv } from '@cloudapi/spec/schema-views';
import { generateValid } from './generation.mjs';
import { mergeOperations, partialDocument } from './incremental.mjs';
import { routingOf } from './routing.mjs';

const require = createRequire(import.meta.url);
const fromPrism = { paths: [require.resolve('@stoplight/prism-http')] };

/**
 * Puts `module` (resolved from Prism) in the module cache as exports whose `names` are read from
 * the file `real` (the module itself by default), loaded when one is first read: Prism reads them
 * only where it uses them, not when it starts. `pick(exports, name)` is what a name reads.
 */
function deferModule(module, names, { real = require.resolve(module, fromPrism), pick = (exports, name) => exports[name] } = {}) {
  const entry = require.resolve(module, fromPrism);
  const deferred = { __esModule: true };
  let loaded = null;
  const load = () => {
    if (!loaded) {
      // The entry may be the real file: out of the cache while it loads, so that it really loads.
      const stand = require.cache[entry];
      delete require.cache[entry];
      try { loaded = require(real); } finally { require.cache[entry] = stand; }
    }
    return loaded;
  };
  for (const name of names) Object.defineProperty(deferred, name, { enumerable: true, get: () => pick(load(), name) });
  require.cache[entry] = { id: entry, filename: entry, loaded: true, exports: deferred };
}
// Faker in English only (its index loads every locale), when a generated value first asks for it.
deferModule('@faker-js/faker', ['default', 'faker'], { real: require.resolve('@faker-js/faker/locale/en', fromPrism), pick: (english) => english });
// Postman collections, which the mock is never given: their library is about 0.12 s of CPU.
deferModule('@stoplight/http-spec/postman/operation', ['transformPostmanCollectionOperations', 'transformPostmanCollectionOperation']);

const { createInstance, getHttpOperationsFromSpec, ProblemJsonError, VIOLATIONS } = require('@stoplight/prism-http');
const { createServer: createPrismServer } = require('@stoplight/prism-http-server');
const { getHttpConfigFromRequest } = require('@stoplight/prism-http-server/dist/getHttpConfigFromRequest.js');
const { serialize } = require('@stoplight/prism-http-server/dist/serialize.js');
const { createLogger } = require('@stoplight/prism-core');
const { DiagnosticSeverity } = require(require.resolve('@stoplight/types', fromPrism));
const generator = require('@stoplight/prism-http/dist/mocker/generator/JSONSchema.js');
const { stripWriteOnlyProperties } = require('@stoplight/prism-http/dist/utils/filterRequiredProperties.js');
const { validateSecurity } = require('@stoplight/prism-http/dist/validator/index.js');
const { JSONSchemaFaker } = require(require.resolve('json-schema-faker', fromPrism));

JSONSchemaFaker.option({ fillProperties: false });

const generate = generator.generate;
const ajv = createAjv();
const validators = new WeakMap();
function validatorFor(source) {
  if (!validators.has(source)) {
    let check = null;
    try {
      const stripped = stripWriteOnlyProperties(source);
      check = ajv.compile(stripped._tag === 'Some' ? stripped.value : source);
    } catch (error) {
      process.stderr.write(`dynamic data for "${source.title ?? 'a schema'}" is served unchecked: ${error.message}\n`);
    }
    validators.set(source, check);
  }
  return validators.get(source);
}
function repaired(resource, bundle, source, seed, first, check) {
  let isFirst = true;
  return generateValid({
    schema: source,
    seed: seed ?? undefined,
    check: (value) => ({ valid: check(value), errors: check.errors ?? [] }),
    generate: (schema, partSeed) => {
      if (isFirst) { isFirst = false; return first; }
      const part = generate(resource, bundle, schema, partSeed);
      if (part._tag === 'Left') throw part.left;
      return part.right;
    },
  }).value;
}
generator.generate = (resource, bundle, source, seed) => {
  const first = generate(resource, bundle, source, seed);
  const check = first._tag === 'Right' && source && typeof source === 'object' ? validatorFor(source) : null;
  if (!check) return first;
  try {
    return { _tag: 'Right', right: repaired(resource, bundle, source, seed, first.right, check) };
  } catch (error) {
    // A part the generator cannot make: serve the answer as generated; Prism's own check names
    // what it breaks in sl-violations. A request must never take the process down.
    process.stderr.write(`dynamic data for "${source.title ?? 'a schema'}" could not be repaired: ${error.message}\n`);
    return first;
  }
};

// Authentication schemes are case-insensitive (RFC 9110 §11.1); Prism's check wants "Bearer". It is
// given a copy of the request with the scheme spelt its way: what is forwarded stays as sent.
function validateSecurityAnyCase({ resource, element }) {
  const authorization = element.headers?.authorization;
  const spelt = typeof authorization === 'string' ? authorization.replace(/^bearer(?=\s)/i, 'Bearer') : authorization;
  return validateSecurity({ resource, element: spelt === authorization ? element : { ...element, headers: { ...element.headers, authorization: spelt } } });
}

/** Prism's violations as its `sl-violations` header writes them. */
function asViolations(side, details) {
  return details.map((d) => ({ location: [side, ...(d.path || [])], severity: DiagnosticSeverity[d.severity], code: d.code, message: d.message }));
}

function queryOf(searchParams) {
  const query = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return query;
}

/** Prism's operations of a mock document (plain data: operations-cache.mjs keeps them as JSON). @param {string} document its path */
export function operationsOf(document) {
  return getHttpOperationsFromSpec(document);
}

/**
 * Prism's engine for one mock document.
 * @param {object} options
 * @param {string} options.document the mock document's path
 * @param {boolean} options.errors Prism's --errors: an answer that breaks its schema fails
 * @param {boolean} [options.dynamic]
 * @param {string} [options.seed]
 * @param {string} [options.upstream] proxy mode: the implementation's root URL
 * @param {object[]} [options.operations] Prism's operations of the document, when they were made already
 */
export async function createEngine({ document, errors, dynamic = false, seed, upstream, operations: given }) {
  const operations = given ?? await operationsOf(document);
  if (operations.length === 0) throw new Error(`${document} has no operations.`);
  const logger = createLogger('PRISM', { level: 'fatal' }, process.stderr);
  const config = {
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors,
    mock: { dynamic, ignoreExamples: false, ...(seed == null ? {} : { seed: String(seed) }) },
    ...(upstream ? { isProxy: true, upstream: new URL(upstream), upstreamProxy: undefined } : { isProxy: false }),
  };
  // Prism's proxy answers with a mocked example when the implementation answers 501: a client (or
  // the contract kit) would then take an object the implementation never made for real. The proxy
  // passes the 501 on instead (and its response check reports the undeclared status).
  const notImplemented = () => () => ({
    _tag: 'Right',
    right: { statusCode: 501, headers: { 'content-type': 'application/json' }, body: { errors: [{ reason: 'The implementation answered 501 Not Implemented.' }] } },
  });
  const components = { logger, validateSecurity: validateSecurityAnyCase, ...(upstream ? { mock: notImplemented } : {}) };
  const prism = createInstance(config, components);
  return engineOf(prism, config, components, operations);
}

/** The engine answering with `operations`, on a Prism instance made once (its set-up is costly). */
function engineOf(prism, config, components, operations) {
  const resourcesFor = routingOf(operations);
  return {
    operations: operations.length,
    /**
     * The same engine with the operations of the path items `paths` made again from `document`
     * (with only the components they reach, see incremental.mjs), the others kept.
     */
    async updated(document, paths) {
      const fresh = paths.size ? await getHttpOperationsFromSpec(partialDocument(document, paths)) : [];
      return engineOf(prism, config, components, mergeOperations(operations, fresh, paths));
    },
    /**
     * Prism's answer to a request, as values.
     * @param {{method: string, url: string, headers: object, body: unknown}} request `body` is the
     *   parsed JSON, the text, or null; `url` the request target.
     * @returns {Promise<{status: number, headers: object, body: string|undefined, violations: object[], problem?: object}>}
     */
    async answer({ method, url, headers, body }) {
      const { searchParams, pathname } = new URL(url, 'http://mock');
      const input = { method: method.toLowerCase(), url: { path: pathname, baseUrl: searchParams.get('__server') || undefined, query: queryOf(searchParams) }, headers, body };
      const perRequest = getHttpConfigFromRequest(input);
      if (perRequest._tag === 'Left') return { status: perRequest.left.status, headers: {}, violations: [], problem: ProblemJsonError.toProblemJson(perRequest.left) };
      const preferred = Object.fromEntries(Object.entries(perRequest.right).filter(([, value]) => value !== undefined));
      const result = await prism.request(input, resourcesFor(input.url.path, input.url.baseUrl), { ...config, mock: { ...config.mock, ...preferred } })();
      if (result._tag === 'Left') {
        const error = result.left;
        return { status: error.status || 500, headers: error.additional?.headers ?? {}, violations: [], problem: ProblemJsonError.toProblemJson(error) };
      }
      const { output, validations } = result.right;
      const violations = [...asViolations('request', validations.input), ...asViolations('response', validations.output)];
      const failing = violations.filter((v) => v.location[0] === 'response' && v.severity === 'Error');
      if (config.errors && failing.length) {
        const problem = ProblemJsonError.toProblemJson(ProblemJsonError.fromTemplate(VIOLATIONS, 'The answer breaks its schema.', { validation: failing }));
        return { status: 500, headers: {}, violations, problem };
      }
      const responseHeaders = { ...output.headers };
      const contentType = Object.entries(responseHeaders).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      try {
        return { status: output.statusCode, headers: responseHeaders, body: serialize(output.body, contentType), violations };
      } catch (error) {
        return { status: 500, headers: {}, violations, problem: ProblemJsonError.toProblemJson(error) };
      }
    },
    /** Prism's own HTTP server on the same operations, as the benchmark's anchor; resolves its port. */
    async listenAlone() {
      const server = createPrismServer(operations, { cors: true, config, components });
      const address = await server.listen(0, '127.0.0.1');
      return { port: Number(new URL(address).port), close: () => server.close() };
    },
  };
}
