// Runs the contract against a target: builds each operation's requests from the spec's examples,
// sends them, and checks every answer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse as parseYaml } from 'yaml';
import { createSchemaViews, pointerOf } from '@cloudapi/spec/schema-views';
import { buildRequest, isJsonMedia, send } from './http.mjs';
import { checkAnswer, checkRefusedWithoutToken, checkRejected, checkSuccess, outcomes } from './checks.mjs';
import { idFromCreated, orderedOperations, parameterExamples, requestBodyOf, schemaPointerOfParameter, securityOf } from './plan.mjs';
import { createVariantDeriver } from './variants.mjs';

const require = createRequire(import.meta.url);
export const MOCK_TOKEN = 'contract-kit-mock-token';

/** The bundle: `@cloudapi/spec`'s by default, or a JSON or YAML file. */
export function loadDocument(file) {
  const path = file || require.resolve('@cloudapi/spec/openapi.json');
  const text = readFileSync(path, 'utf8');
  return /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
}

/**
 * Whether the target is the Prism mock: Prism answers a path the spec does not have with its own
 * problem body (`https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR`) and flags refused
 * requests in an `sl-violations` header; an implementation does neither.
 */
export async function detectTarget(baseUrl, { timeoutMs = 15_000 } = {}) {
  const probe = `${baseUrl.replace(/\/+$/, '')}/cloudapi-contract-probe-${Date.now()}`;
  const answer = await send({ method: 'GET', url: probe, headers: { accept: 'application/json' } }, { timeoutMs });
  if (answer.error) return { target: null, reason: `no answer from ${baseUrl}: ${answer.error}` };
  const prism = (answer.json && typeof answer.json.type === 'string' && answer.json.type.includes('stoplight.io/prism')) || answer.headers.has('sl-violations');
  return prism
    ? { target: 'mock', reason: `GET ${probe} was answered by Prism (its error body and headers)` }
    : { target: 'implementation', reason: `GET ${probe} was not answered by Prism (answered ${answer.status})` };
}

// Compiled validators are kept per document, so repeated runs (tests, watch loops) reuse them.
const tools = new WeakMap();
function toolsFor(document) {
  if (!tools.has(document)) {
    const views = createSchemaViews(document);
    tools.set(document, { views, deriver: createVariantDeriver(views) });
  }
  return tools.get(document);
}

function matchesFilter(op, list) {
  return list.some((entry) => entry === op.operation.operationId || (op.operation.tags || []).includes(entry) || entry === `${op.method.toUpperCase()} ${op.path}`);
}

async function pool(items, size, work) {
  let next = 0;
  const runners = Array.from({ length: Math.max(1, Math.min(size, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i], i);
    }
  });
  await Promise.all(runners);
}

/**
 * @param {object} options
 * @param {string} options.baseUrl the API base URL, ending in the spec's base path (`…/v4`)
 * @param {string} [options.token] bearer token for secured operations
 * @param {'auto'|'mock'|'implementation'} [options.target]
 * @param {object} [options.document] the bundle (default: `@cloudapi/spec`'s)
 * @param {string[]} [options.only] operationIds, tags or `METHOD /path`s to run (default all)
 * @param {string[]} [options.skip] operationIds, tags or `METHOD /path`s to leave out
 * @param {'warn'|'fail'|'off'} [options.undeclared] what an undeclared response field is
 * @param {boolean} [options.negative] send the invalid variants (default true)
 * @param {number} [options.concurrency] operations in flight (default 4 on a mock, 1 otherwise)
 * @param {number} [options.timeoutMs] per request
 */
export async function runContract(options) {
  const started = performance.now();
  const document = options.document || loadDocument(options.spec);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const { views, deriver } = toolsFor(document);
  const resolve = (node) => views.resolve(node);
  const timeoutMs = options.timeoutMs ?? 15_000;

  let detection = { target: options.target, reason: 'chosen with --target' };
  if (!options.target || options.target === 'auto') detection = await detectTarget(baseUrl, { timeoutMs });
  if (!detection.target) throw new Error(detection.reason);
  const target = detection.target;
  const token = options.token || (target === 'mock' ? MOCK_TOKEN : undefined);
  const ctx = {
    document, views, target, undeclared: options.undeclared || 'warn',
    errorSchemaPointer: document.components?.schemas?.ErrorResponse ? pointerOf('components', 'schemas', 'ErrorResponse') : null,
  };

  const notes = [];
  const serverPath = document.servers?.[0]?.url ? new URL(document.servers[0].url, 'http://placeholder').pathname.replace(/\/+$/, '') : '';
  if (serverPath && !new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith(serverPath)) {
    notes.push(`the base URL does not end in ${serverPath}, the base path of the spec's server URL; operation paths are appended to it as given`);
  }

  const all = orderedOperations(document);
  const selected = all.filter((op) => (!options.only?.length || matchesFilter(op, options.only)) && !(options.skip?.length && matchesFilter(op, options.skip)));
  const created = new Map();
  const results = new Map();

  async function exchange(opResult, op, label, kind, request, checksFor) {
    const answer = await send(request, { timeoutMs });
    const checks = [...checkAnswer(ctx, op, answer), ...checksFor(answer)];
    opResult.requests.push({ label, kind, method: request.method, url: request.url, status: answer.status ?? null, ms: Math.round(answer.ms), checks });
    return answer;
  }

  async function runOperation(op) {
    const security = securityOf(document, op.operation);
    const opResult = {
      operationId: op.operation.operationId || `${op.method} ${op.path}`, method: op.method.toUpperCase(), path: op.path, security,
      requests: [], notes: [],
    };
    results.set(op, opResult);
    const problems = [];
    const fits = (parameter, value) => views.validate('request', schemaPointerOfParameter(parameter), value).valid;

    // Parameter values: examples (required ones, and optional ones that have an example), with
    // path ids from earlier create answers when they fit.
    const params = { path: {}, query: {}, header: {} };
    for (const parameter of op.parameters) {
      if (!params[parameter.in]) continue;
      const hasExample = parameter.example !== undefined || parameter.examples !== undefined;
      if (!parameter.required && !hasExample) continue;
      const fromCreate = parameter.in === 'path' ? idFromCreated(created, op.path, parameter, (v) => fits(parameter, v)) : undefined;
      const value = fromCreate ?? parameterExamples(document, parameter, resolve).find((v) => fits(parameter, v));
      if (value === undefined) {
        if (parameter.required) problems.push(`no valid value for the ${parameter.in} parameter "${parameter.name}": give it an example`);
        continue;
      }
      params[parameter.in][parameter.name] = value;
    }
    const body = requestBodyOf(document, op, resolve);
    const examples = body ? body.examples.filter((e) => views.validate('request', body.schemaPointer, e.value).valid) : [];
    if (body && body.required && !examples.length) problems.push(`no valid request body example for ${body.mediaType}: give the request body a named example`);
    if (problems.length) {
      opResult.requests.push({ label: 'request built', kind: 'setup', checks: problems.map((p) => outcomes.fail('request built', p)) });
      return opResult;
    }

    const needsToken = security === 'secured';
    const sendToken = security === 'public' ? undefined : token;
    if (needsToken && !sendToken) {
      opResult.notes.push('no --token: only the 401 check ran');
    } else {
      // Valid requests: one per request body example (or one without a body).
      const positives = body ? (examples.length ? examples : [null]) : [null];
      for (const example of positives) {
        const request = buildRequest({ baseUrl, method: op.method, path: op.path, params, token: sendToken, body: example && { ...body, value: example.value } });
        const label = example ? `valid request (example "${example.name}")` : 'valid request';
        const answer = await exchange(opResult, op, label, 'positive', request, (a) => checkSuccess(ctx, op, a, Boolean(sendToken)));
        if (op.creates && answer.status >= 200 && answer.status < 300 && answer.json && !created.has(op.path)) created.set(op.path, answer.json);
      }

      // Invalid requests: variants of the body and of the parameters, one broken rule each.
      if (options.negative !== false) {
        const variants = [];
        if (body && examples.length) {
          const jsonBody = isJsonMedia(body.mediaType);
          for (const v of deriver.deriveVariants(body.schemaPointer, examples.map((e) => e.value), { jsonBody })) variants.push({ ...v, location: 'body' });
        }
        for (const parameter of op.parameters) {
          if (!['path', 'query'].includes(parameter.in) || params[parameter.in][parameter.name] === undefined) continue;
          for (const v of deriver.parameterVariants(schemaPointerOfParameter(parameter), params[parameter.in][parameter.name], parameter.in)) {
            variants.push({ ...v, location: parameter.in, parameter, fields: [parameter.name], description: `${parameter.in} parameter ${parameter.name}: ${v.description}` });
          }
        }
        for (const variant of variants) {
          const variantParams = variant.parameter ? { ...params, [variant.location]: { ...params[variant.location], [variant.parameter.name]: variant.value } } : params;
          const variantBody = variant.location === 'body' ? { ...body, value: variant.value } : examples[0] && { ...body, value: examples[0].value };
          const request = buildRequest({ baseUrl, method: op.method, path: op.path, params: variantParams, token: sendToken, body: variantBody });
          await exchange(opResult, op, `invalid: ${variant.description} [${variant.rule}]`, 'negative', request, (a) => checkRejected(ctx, variant, a));
        }
      }
    }

    if (needsToken) {
      const request = buildRequest({ baseUrl, method: op.method, path: op.path, params, body: examples[0] && { ...body, value: examples[0].value } });
      await exchange(opResult, op, 'without a token', 'no-token', request, (a) => checkRefusedWithoutToken(a));
    } else {
      opResult.notes.push(security === 'public' ? 'public: sent without a token' : 'authentication optional: no 401 check');
    }
    return opResult;
  }

  // A schema the kit cannot handle fails its operation's run, not the whole run.
  async function runOperationSafely(op) {
    try {
      await runOperation(op);
    } catch (error) {
      const opResult = results.get(op);
      opResult.requests.push({ label: 'kit error', kind: 'setup', checks: [outcomes.fail('kit error', `the kit failed on this operation: ${error.stack || error.message}`)] });
    }
  }

  const concurrency = options.concurrency ?? (target === 'mock' ? 4 : 1);
  await pool(selected, concurrency, runOperationSafely);

  const operationsRun = selected.map((op) => results.get(op));
  return summarize({
    api: `${document.info?.title ?? 'API'} ${document.info?.version ?? ''}`.trim(),
    baseUrl, target, detection: detection.reason, tokenGiven: Boolean(options.token), notes,
    undeclared: ctx.undeclared, totalOperations: all.length, operations: operationsRun,
    durationMs: Math.round(performance.now() - started),
  });
}

export function summarize(result) {
  const tally = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const op of result.operations) {
    op.tally = { pass: 0, fail: 0, warn: 0, skip: 0 };
    for (const request of op.requests) for (const check of request.checks) { op.tally[check.outcome]++; tally[check.outcome]++; }
    op.exercised = op.requests.some((r) => r.kind !== 'setup' && r.status !== null);
    op.successValidated = op.requests.some((r) => r.kind === 'positive' && r.checks.some((c) => c.name === 'success' && c.outcome === 'pass')
      && !r.checks.some((c) => c.outcome === 'fail'));
  }
  const exercised = result.operations.filter((op) => op.exercised).length;
  const successValidated = result.operations.filter((op) => op.successValidated).length;
  return { ...result, tally, coverage: { exercised, successValidated, selected: result.operations.length, total: result.totalOperations }, ok: tally.fail === 0 };
}
