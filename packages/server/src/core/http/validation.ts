// Request validation from the bundle: Ajv (JSON Schema 2020-12) on the request view of the
// schemas (a readOnly field may not be sent). Path and query values are strings on the wire and
// are coerced to their schema's type; JSON bodies are not coerced, and unknown fields are refused
// rather than dropped. Each failure becomes an ErrorDetail naming the field as a dotted path.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, viewDocument } from '@cloudapi/spec/schema-views';
import type { ErrorDetail } from '../errors.js';
import type { OperationSpec, ParameterSpec } from '../spec.js';

const VIEW_ID = 'cloudapi-request-view';
const MAX_ERRORS = 20;

export interface OperationValidator {
  /** Coerces and checks path parameters in place; returns the problems. */
  params(values: Record<string, unknown>): ErrorDetail[];
  /** Coerces and checks query parameters in place (defaults filled in); returns the problems. */
  query(values: Record<string, unknown>): ErrorDetail[];
  /** Checks a JSON body in place (defaults filled in); returns the problems. */
  body(value: unknown, mediaType: string): ErrorDetail[];
}

type Ajv = ReturnType<typeof createAjv>;

export class RequestValidation {
  private readonly document: unknown;
  private ajvs: { strict: Ajv; coercing: Ajv } | null = null;
  private readonly byOperation = new Map<string, OperationValidator>();

  constructor(document: unknown) {
    this.document = document;
  }

  // Made on first use: start-up does not wait for them. Bodies are not coerced; path and query
  // strings are.
  private get strict(): Ajv {
    return this.both().strict;
  }

  private get coercing(): Ajv {
    return this.both().coercing;
  }

  private both() {
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

  /** Validators compile on first use, so start-up does not pay for 128 operations. */
  forOperation(op: OperationSpec): OperationValidator {
    let validator = this.byOperation.get(op.operationId);
    if (!validator) {
      validator = this.build(op);
      this.byOperation.set(op.operationId, validator);
    }
    return validator;
  }

  private build(op: OperationSpec): OperationValidator {
    const lazy = (make: () => ValidateFunction) => {
      let compiled: ValidateFunction | undefined;
      return () => (compiled ??= make());
    };
    const parametersSchema = (list: ParameterSpec[]) => ({
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [p.name, { $ref: `${VIEW_ID}${p.schemaPointer}` }])),
      required: list.filter((p) => p.required).map((p) => p.name),
    });
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    const params = lazy(() => this.coercing.compile(parametersSchema(pathParams)));
    const query = lazy(() => this.coercing.compile(parametersSchema(queryParams)));
    const bodies = new Map<string, () => ValidateFunction>();
    for (const [mediaType, pointer] of op.requestBody?.media ?? []) bodies.set(mediaType, lazy(() => this.strict.compile({ $ref: `${VIEW_ID}${pointer}` })));

    const run = (check: ValidateFunction, value: unknown, where: 'path' | 'query' | 'body') => (check(value) ? [] : describeErrors(check.errors ?? [], value, where));
    // Ajv coerces `Infinity` and `1e400` to numbers after its type check, so strictNumbers
    // does not see them: a coerced value that is not finite is refused here.
    const runCoerced = (check: ValidateFunction, values: Record<string, unknown>, where: 'path' | 'query') => {
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

/** The value as JSON with object keys sorted: equal JSON values give equal keys. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

/**
 * Ajv compares every pair of items of a `uniqueItems` array whose items are not all of one simple
 * type (`$ref` items: tags), so 100,000 tags took seconds before `maxItems` refused them; here
 * each item is keyed once. Errors keep Ajv's shape (`params.i`, `params.j`).
 */
function withLinearUniqueItems(ajv: Ajv): Ajv {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: function unique(schema: boolean, data: unknown[]) {
      if (!schema) return true;
      const seen = new Map<string, number>();
      for (let j = 0; j < data.length; j++) {
        const item = data[j];
        const key = typeof item === 'string' ? `s${item}` : canonical(item);
        const i = seen.get(key);
        if (i !== undefined) {
          (unique as unknown as { errors: Partial<ErrorObject>[] }).errors = [{ keyword: 'uniqueItems', params: { i, j }, message: 'must NOT have duplicate items' }];
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

function pathSegments(instancePath: string): string[] {
  return instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(root: unknown, segments: string[]): unknown {
  return segments.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), root);
}

/** Property names a (sub)schema talks about: its `required`, `properties` and those of its parts. */
function namesIn(schema: any, depth = 0): string[] {
  if (!schema || typeof schema !== 'object' || depth > 6) return [];
  const names = [...(Array.isArray(schema.required) ? schema.required : []), ...Object.keys(schema.properties ?? {}), ...Object.keys(schema.dependentRequired ?? {})];
  for (const key of ['allOf', 'anyOf', 'oneOf']) for (const sub of schema[key] ?? []) names.push(...namesIn(sub, depth + 1));
  for (const key of ['not', 'then', 'else']) if (schema[key]) names.push(...namesIn(schema[key], depth + 1));
  return [...new Set(names)];
}

const list = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

function reasonFor(error: ErrorObject): string {
  const p = error.params as Record<string, any>;
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
function fieldsOf(error: ErrorObject, data: unknown): string[] {
  const base = pathSegments(error.instancePath);
  const p = error.params as Record<string, any>;
  const at = (...more: string[]) => [...base, ...more].join('.');
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
      const value = valueAt(data, base);
      const sent = value && typeof value === 'object' ? Object.keys(value) : [];
      const named = namesIn(error.keyword === 'not' ? error.schema : { anyOf: error.schema });
      const present = named.filter((name) => sent.includes(name));
      return present.length ? present : named;
    }
    default: return base.length ? [at()] : [];
  }
}

export function describeErrors(errors: ErrorObject[], data: unknown, where: 'path' | 'query' | 'body'): ErrorDetail[] {
  // `if` only says which branch failed; the branch's own errors say what is wrong.
  const meaningful = errors.length > 1 ? errors.filter((e) => e.keyword !== 'if') : errors;
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
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
