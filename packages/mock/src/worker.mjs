// The Prism process of the mock: Prism's own HTTP server (the packages `prism mock` and
// `prism proxy` run) on an ephemeral loopback port, started by `startMock()` with an IPC channel.
// It tells its parent where it listens, and on `reload` starts a second server on the rewritten
// document before the first one is closed, so no request is ever refused during a reload.
//
// Messages out: {type: 'listening', port, operations}, {type: 'reloaded', id, port, operations},
// {type: 'reload-failed', id, message}. Messages in: {type: 'reload', id}.
import { createRequire } from 'node:module';
import { createAjv } from '@cloudapi/spec/schema-views';
import { generateValid } from './generation.mjs';

const require = createRequire(import.meta.url);
const options = JSON.parse(process.argv[2]);

// Prism's generator loads @faker-js/faker, whose index loads every locale (1.5 of Prism's 2.5 s of
// start-up here). Prism uses only the default English one, so that is all it is given.
const prismHttp = { paths: [require.resolve('@stoplight/prism-http')] };
const fakerEntry = require.resolve('@faker-js/faker', prismHttp);
const englishFaker = require(require.resolve('@faker-js/faker/locale/en', prismHttp));
require.cache[fakerEntry] = { id: fakerEntry, filename: fakerEntry, loaded: true, exports: { __esModule: true, default: englishFaker, faker: englishFaker } };

const { getHttpOperationsFromSpec } = require('@stoplight/prism-http');
const { createServer } = require('@stoplight/prism-http-server');
const { createLogger } = require('@stoplight/prism-core');
const generator = require('@stoplight/prism-http/dist/mocker/generator/JSONSchema.js');
const { stripWriteOnlyProperties } = require('@stoplight/prism-http/dist/utils/filterRequiredProperties.js');
const { validateSecurity } = require('@stoplight/prism-http/dist/validator/index.js');
const { JSONSchemaFaker } = require(require.resolve('json-schema-faker', prismHttp));

// Generated objects carry only the fields their schemas declare.
JSONSchemaFaker.option({ fillProperties: false });

// Every generated body is checked against its schema and the parts that break it regenerated
// (see generation.mjs). Prism's mocker calls the generator through its module's exports, so
// replacing the export is enough; a test of dynamic answers fails if an upgrade changes that.
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

// Prism logs every refused request; the front layer reports what matters, so only fatal errors.
const logger = createLogger('PRISM', { level: options.logLevel || 'fatal' }, process.stderr);
const config = {
  validateRequest: true,
  validateResponse: true,
  checkSecurity: true,
  errors: options.errors,
  mock: { dynamic: options.dynamic, ignoreExamples: false, ...(options.seed == null ? {} : { seed: String(options.seed) }) },
  ...(options.upstream ? { isProxy: true, upstream: new URL(options.upstream), upstreamProxy: undefined } : { isProxy: false }),
};

async function listen() {
  const operations = await getHttpOperationsFromSpec(options.document);
  if (operations.length === 0) throw new Error(`${options.document} has no operations.`);
  const server = createServer(operations, { cors: true, config, components: { logger, validateSecurity: validateSecurityAnyCase } });
  const address = await server.listen(0, '127.0.0.1');
  return { server, port: Number(new URL(address).port), operations: operations.length };
}

let current = await listen();
process.send({ type: 'listening', port: current.port, operations: current.operations });

let reloading = Promise.resolve();
process.on('message', (message) => {
  if (message?.type !== 'reload') return;
  reloading = reloading.then(async () => {
    try {
      const next = await listen();
      const previous = current;
      current = next;
      process.send({ type: 'reloaded', id: message.id, port: next.port, operations: next.operations });
      // Requests the front layer already sent there finish; idle connections close.
      setTimeout(() => previous.server.close().catch(() => {}), 1_000).unref();
    } catch (error) {
      process.send({ type: 'reload-failed', id: message.id, message: error.message });
    }
  });
});
// The parent going away (even by SIGKILL) closes the channel: nothing is left behind.
process.on('disconnect', () => process.exit(0));
