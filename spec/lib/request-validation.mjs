// Request validation from a bundle: Ajv (JSON Schema 2020-12) on the request view of the schemas
// (a readOnly field may not be sent). Path and query values are strings on the wire and are
// coerced to their schema's type; JSON bodies are not coerced, and unknown fields are refused
// rather than dropped. Each failure becomes an ErrorDetail naming the field as a dotted path.
// Shared by the reference server and the MSW handlers (@cloudapi/msw), so both name a bad field
// the same way.
import { parsePointer } from './json-pointer.mjs';
import { createAjv, viewDocument } from './schema-views.mjs';
import { schemaParts } from './schema-walk.mjs';

const VIEW_ID = 'cloudapi-request-view';
const MAX_ERRORS = 20;

/**
 * @typedef {{ field?: string, reason: string }} ErrorDetail
 * @typedef {{ name: string, in: string, required: boolean, schemaPointer: string }} ValidatedParameter
 * @typedef {{ operationId: string, parameters: ValidatedParameter[], requestBody: { media: Map<string, string> } | null }} ValidatedOperation
 *   `requestBody.media`: media type → JSON pointer of its schema in the bundle
 * @typedef {object} OperationValidator
 * @property {(values: Record<string, unknown>) => ErrorDetail[]} params coerces and checks path parameters in place
 * @property {(values: Record<string, unknown>) => ErrorDetail[]} query coerces and checks query parameters in place (defaults filled in)
 * @property {(value: unknown, mediaType: string) => ErrorDetail[]} body checks a JSON body in place (defaults filled in)
 */

export class RequestValidation {
  /** @param {unknown} document the bundle */
  constructor(document) {
    /** @private */
    this.document = document;
    /** @private @type {{ strict: ReturnType<typeof createAjv>, coercing: ReturnType<typeof createAjv> } | null} */
    this.ajvs = null;
    /** @private @type {Map<string, OperationValidator>} */
    this.byOperation = new Map();
    /** @private @type {Map<string, import('ajv').ValidateFunction>} */
    this.bySchema = new Map();
  }

  // Made on first use: start-up does not wait for them. Bodies are not coerced; path and query
  // strings are.
  /** @private */
  both() {
    if (!this.ajvs) {
      const view = viewDocument(this.document, 'request');
      // validateSchema: false: the bundle's schemas are checked by the spec's lint (and the mock's
      // Ajv); checking them against the JSON Schema meta-schema here was a third of the first
      // request's time.
      // strictNumbers: Infinity and NaN (`?page=Infinity`, `1e400` in JSON) are no numbers at all,
      // so no integer or bounded number takes them.
      const options = { verbose: true, useDefaults: true, removeAdditional: false, validateSchema: false, strictNumbers: true };
      const strict = withLinearUniqueItems(createAjv({ ...options, coerceTypes: false }));
      const coercing = withLinearUniqueItems(createAjv({ ...options, coerceTypes: true }));
      strict.addSchema(view, VIEW_ID);
      coercing.addSchema(view, VIEW_ID);
      this.ajvs = { strict, coercing };
    }
    return this.ajvs;
  }

  /**
   * Validators compile on first use, so start-up does not pay for every operation.
   * @param {ValidatedOperation} op
   * @returns {OperationValidator}
   */
  forOperation(op) {
    let validator = this.byOperation.get(op.operationId);
    if (!validator) {
      validator = this.build(op);
      this.byOperation.set(op.operationId, validator);
    }
    return validator;
  }

  /**
   * A check of a value against any schema of the bundle (request view, JSON not coerced), for a
   * value a handler builds itself (a domain record as it would stand after an update). The value
   * is left as it is: defaults fill a copy. Compiled on first use.
   * @param {string} pointer JSON pointer of the schema in the bundle (`#/components/schemas/X`)
   * @returns {(value: unknown) => ErrorDetail[]}
   */
  forSchema(pointer) {
    let check = this.bySchema.get(pointer);
    if (!check) {
      check = this.both().strict.compile({ $ref: `${VIEW_ID}${pointer}` });
      this.bySchema.set(pointer, check);
    }
    const compiled = check;
    return (value) => (compiled(structuredClone(value)) ? [] : describeErrors(compiled.errors ?? [], value, 'body'));
  }

  /** @private @param {ValidatedOperation} op @returns {OperationValidator} */
  build(op) {
    /** @param {() => import('ajv').ValidateFunction} make */
    const lazy = (make) => {
      /** @type {import('ajv').ValidateFunction | undefined} */
      let compiled;
      return () => (compiled ??= make());
    };
    /** @param {ValidatedParameter[]} list */
    const parametersSchema = (list) => ({
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [p.name, { $ref: `${VIEW_ID}${p.schemaPointer}` }])),
      required: list.filter((p) => p.required).map((p) => p.name),
    });
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    const params = lazy(() => this.both().coercing.compile(parametersSchema(pathParams)));
    const query = lazy(() => this.both().coercing.compile(parametersSchema(queryParams)));
    /** @type {Map<string, () => import('ajv').ValidateFunction>} */
    const bodies = new Map();
    for (const [mediaType, pointer] of op.requestBody?.media ?? []) bodies.set(mediaType, lazy(() => this.both().strict.compile({ $ref: `${VIEW_ID}${pointer}` })));

    /** @param {import('ajv').ValidateFunction} check @param {unknown} value @param {'path' | 'query' | 'body'} where */
    const run = (check, value, where) => (check(value) ? [] : describeErrors(check.errors ?? [], value, where));
    // Ajv coerces `Infinity` and `1e400` to numbers after its type check, so strictNumbers does
    // not see them: a coerced value that is not finite is refused here.
    /** @param {import('ajv').ValidateFunction} check @param {Record<string, unknown>} values @param {'path' | 'query'} where */
    const runCoerced = (check, values, where) => {
      const problems = run(check, values, where);
      for (const [name, value] of Object.entries(values)) {
        if ([value].flat().some((v) => typeof v === 'number' && !Number.isFinite(v))) problems.push({ field: name, reason: `${where} parameter ${name} must be a finite number` });
      }
      return problems;
    };
    return {
      params: (values) => (pathParams.length ? runCoerced(params(), values, 'path') : []),
      query: (values) => (queryParams.length ? runCoerced(query(), values, 'query') : []),
      body: (value, mediaType) => {
        const check = bodies.get(mediaType);
        return check ? run(check(), value, 'body') : [];
      },
    };
  }
}

// ---- uniqueItems in linear time ------------------------------------------------------------------

/** The value as JSON with object keys sorted: equal JSON values give equal keys. @param {unknown} value @returns {string} */
function canonical(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(/** @type {Record<string, unknown>} */ (value)[key])}`).join(',')}}`;
}

/**
 * Ajv compares every pair of items of a `uniqueItems` array whose items are not all of one simple
 * type (`$ref` items: tags), so 100,000 tags took seconds before `maxItems` refused them; here
 * each item is keyed once. Errors keep Ajv's shape (`params.i`, `params.j`).
 * @param {ReturnType<typeof createAjv>} ajv
 */
function withLinearUniqueItems(ajv) {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    /** @param {boolean} schema @param {unknown[]} data */
    validate: function unique(schema, data) {
      if (!schema) return true;
      const seen = new Map();
      for (let j = 0; j < data.length; j++) {
        const item = data[j];
        const key = typeof item === 'string' ? `s${item}` : canonical(item);
        const i = seen.get(key);
        if (i !== undefined) {
          /** @type {any} */ (unique).errors = [{ keyword: 'uniqueItems', params: { i, j }, message: 'must NOT have duplicate items' }];
          return false;
        }
        seen.set(key, j);
      }
      return true;
    },
  });
  return ajv;
}

// ---- Ajv errors → {field, reason} -------------------------------------------------------------

/** Property names a (sub)schema talks about: its `required`, `properties` and those of its parts. */
function namesIn(schema) {
  const names = schemaParts(schema, { keywords: ['allOf', 'anyOf', 'oneOf', 'not', 'then', 'else'], maxDepth: 6 })
    .flatMap((part) => [...(Array.isArray(part.required) ? part.required : []), ...Object.keys(part.properties ?? {}), ...Object.keys(part.dependentRequired ?? {})]);
  return [...new Set(names)];
}

const list = (values) => values.map((v) => JSON.stringify(v)).join(', ');

function reasonFor(error) {
  const p = error.params;
  switch (error.keyword) {
    case 'required': return 'is required';
    case 'dependentRequired': return `is required when ${p.property} is given`;
    case 'additionalProperties':
    case 'unevaluatedProperties': return 'is not a field this request accepts';
    case 'false schema': return 'cannot be set in a request (the server sets it)';
    case 'propertyNames': return 'is not an accepted name here';
    case 'type': return `must be of type ${Array.isArray(p.type) ? p.type.join(' or ') : p.type}`;
    case 'enum': return `must be one of ${list(p.allowedValues)}`;
    case 'const': return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'minLength': return `must be at least ${p.limit} character${p.limit === 1 ? '' : 's'} long`;
    case 'maxLength': return `must be at most ${p.limit} characters long`;
    case 'minimum': return `must be at least ${p.limit}`;
    case 'maximum': return `must be at most ${p.limit}`;
    case 'exclusiveMinimum': return `must be more than ${p.limit}`;
    case 'exclusiveMaximum': return `must be less than ${p.limit}`;
    case 'multipleOf': return `must be a multiple of ${p.multipleOf}`;
    case 'pattern': return `must match the pattern ${p.pattern}`;
    case 'format': return `must be a valid ${p.format}`;
    case 'minItems': return `must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems': return `must have at most ${p.limit} items`;
    case 'uniqueItems': return `must not repeat an item (items ${p.j} and ${p.i} are the same)`;
    case 'minProperties': return `must have at least ${p.limit} field${p.limit === 1 ? '' : 's'}`;
    case 'maxProperties': return `must have at most ${p.limit} fields`;
    case 'contains':
    case 'minContains':
    case 'maxContains': return `must contain ${p.minContains !== undefined || error.keyword === 'minContains' ? 'at least' : 'at most'} ${p.limit ?? p.minContains ?? p.maxContains ?? 1} matching item(s)`;
    case 'not': return 'is not allowed with the other values sent';
    case 'oneOf': return 'must match exactly one of the accepted forms';
    case 'anyOf': return 'must match one of the accepted forms';
    default: return error.message ?? 'is not valid';
  }
}

/** The fields an error is about, as dotted paths (`tags.2`, `devices.sda.disk_id`). */
function fieldsOf(error, data) {
  const base = parsePointer(error.instancePath);
  const p = error.params;
  const at = (...more) => [...base, ...more].join('.');
  switch (error.keyword) {
    case 'required':
    case 'dependentRequired': return [at(p.missingProperty)];
    case 'additionalProperties': return [at(p.additionalProperty)];
    case 'unevaluatedProperties': return [at(p.unevaluatedProperty)];
    case 'propertyNames': return [at(p.propertyName)];
    case 'not':
    case 'oneOf':
    case 'anyOf': {
      if (base.length) return [at()];
      // At the top of the body: the fields of the forbidden or alternative shapes that were sent.
      const sent = data && typeof data === 'object' ? Object.keys(data) : [];
      const named = namesIn(error.keyword === 'not' ? error.schema : { anyOf: error.schema });
      const present = named.filter((name) => sent.includes(name));
      return present.length ? present : named;
    }
    default: return base.length ? [at()] : [];
  }
}

/**
 * Ajv's errors as ErrorDetails naming the field as a dotted path.
 * @param {import('ajv').ErrorObject[]} errors
 * @param {unknown} data the value checked
 * @param {'path' | 'query' | 'body'} where
 * @returns {ErrorDetail[]}
 */
export function describeErrors(errors, data, where) {
  // `if` only says which branch failed; the branch's own errors say what is wrong.
  const meaningful = errors.length > 1 ? errors.filter((e) => e.keyword !== 'if') : errors;
  const seen = new Set();
  /** @type {ErrorDetail[]} */
  const details = [];
  for (const error of meaningful) {
    const fields = fieldsOf(error, data);
    const reason = reasonFor(error);
    for (const field of fields.length ? fields : ['']) {
      const key = `${field} ${reason}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (field) details.push({ field, reason: `${where === 'body' ? field : `${where} parameter ${field}`} ${reason}` });
      else details.push({ reason: where === 'body' ? `The request body ${reason}` : `The ${where} parameters: ${reason}` });
    }
    if (details.length >= MAX_ERRORS) break;
  }
  return details;
}
