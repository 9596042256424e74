// The spec's examples as the data tests walk them: every example value of the bundle (bodies and
// parameters) with where it is, and every object inside a value. Used to check the server's data
// files (data/catalogue.json, data/sandbox.json) against the examples.
import { bodiesOf, mediaExamples, operations, parameterExamples } from '@cloudapi/spec/walk';

export interface Example {
  where: string;
  operationId: string;
  /** `request` or `response` for bodies, `parameter` for a parameter's value. */
  kind: 'request' | 'response' | 'parameter';
  value: unknown;
}

/** Every example value of the bundle (bodies and parameters), with where it is. */
export function* examples(document: unknown): Generator<Example> {
  for (const op of operations(document)) {
    const operationId = op.operation.operationId as string;
    for (const body of bodiesOf(document, op)) {
      for (const e of mediaExamples(document, body.media)) yield { where: `${operationId} ${body.kind} example "${e.name}"`, operationId, kind: body.kind, value: e.value };
    }
    for (const p of op.parameters) {
      for (const v of parameterExamples(document, p)) yield { where: `${operationId} parameter ${p.name}`, operationId, kind: 'parameter', value: { [p.name]: v } };
    }
  }
}

export function* objectsIn(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) yield* objectsIn(item);
  else if (value && typeof value === 'object') {
    yield value as Record<string, unknown>;
    for (const item of Object.values(value)) yield* objectsIn(item);
  }
}
