// Checks a request before it is sent, with Ajv on the request view of the bundle's own schemas
// (@cloudapi/spec/schema-views: readOnly fields may not be sent), so a missing field, a value
// outside an enum or a range is refused with the schema's own limits and names. Loaded only when
// a command runs: Ajv and the bundle stay out of `--help`.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { loadBundle } from '@cloudapi/spec/bundle';
import { parsePointer } from '@cloudapi/spec/json-pointer';
import { createAjv, viewDocument } from '@cloudapi/spec/schema-views';

const VIEW_ID = 'cloudapi-request-view';

export interface Problem { path: string[]; reason: string }

let ajv: ReturnType<typeof createAjv> | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(pointer: string): ValidateFunction {
  if (!ajv) {
    const bundle = loadBundle();
    ajv = createAjv({ validateSchema: false });
    ajv.addSchema(viewDocument(bundle, 'request') as object, VIEW_ID);
  }
  const known = compiled.get(pointer);
  if (known) return known;
  const check = ajv.compile({ $ref: `${VIEW_ID}${pointer}` });
  compiled.set(pointer, check);
  return check;
}

/** The problems of `value` against the schema at `pointer` of the bundle; empty when it is valid. */
export function check(pointer: string, value: unknown): Problem[] {
  const validate = validatorFor(pointer);
  if (validate(value)) return [];
  return describe(validate.errors ?? []);
}

const list = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function reasonOf(error: ErrorObject): string {
  const p = error.params as Record<string, any>;
  switch (error.keyword) {
    case 'required': return 'is required';
    case 'dependentRequired': return `is required when ${p.property} is given`;
    case 'additionalProperties': case 'unevaluatedProperties': return 'is not a field this request accepts';
    case 'false schema': return 'cannot be sent (the service sets it)';
    case 'type': return `must be ${[p.type].flat().join(' or ')}`;
    case 'enum': return `must be one of ${list(p.allowedValues)}`;
    case 'const': return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'minLength': return `must be at least ${plural(p.limit, 'character')} long`;
    case 'maxLength': return `must be at most ${plural(p.limit, 'character')} long`;
    case 'minimum': return `must be at least ${p.limit}`;
    case 'maximum': return `must be at most ${p.limit}`;
    case 'exclusiveMinimum': return `must be more than ${p.limit}`;
    case 'exclusiveMaximum': return `must be less than ${p.limit}`;
    case 'minItems': return `must have at least ${plural(p.limit, 'item')}`;
    case 'maxItems': return `must have at most ${plural(p.limit, 'item')}`;
    case 'pattern': return `must match ${p.pattern}`;
    case 'format': return `must be a valid ${p.format}`;
    case 'not': return 'is not allowed with the other values given';
    default: return error.message ?? `fails ${error.keyword}`;
  }
}

const pathOf = (error: ErrorObject) => {
  const segments = parsePointer(error.instancePath);
  const p = error.params as Record<string, any>;
  const child = p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty;
  return child === undefined ? segments : [...segments, child];
};

// Keywords that only say that a branch failed; the branch's own errors say why. A `type: null`
// error is the other side of a nullable field and says nothing either.
const WRAPPERS = new Set(['if', 'oneOf', 'anyOf', 'allOf']);

function describe(errors: ErrorObject[]): Problem[] {
  const specific = errors.filter((e) => !WRAPPERS.has(e.keyword) && !(e.keyword === 'type' && (e.params as { type: unknown }).type === 'null'));
  const chosen = specific.length ? specific : errors;
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of chosen) {
    const problem = { path: pathOf(error), reason: reasonOf(error) };
    const key = `${problem.path.join('.')} ${problem.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}
