// The answer from the spec's examples: the success example, or the one a `Prefer` header names,
// as the mock (Prism) takes it: `Prefer: example=<name>` picks a named example, `Prefer: code=<status>`
// a declared status. Asking for one the operation does not declare is a 400 listing those it does.
import { HttpResponse } from 'msw';
import { errorAnswer } from './errors.js';
import type { MockOperation } from './operations.js';

/** `Prefer: code=404, example=notFound` → { code: '404', example: 'notFound' }. */
function preferences(header: string | null): Record<string, string> {
  const found: Record<string, string> = {};
  for (const part of (header ?? '').split(/[,;]/)) {
    const match = /^\s*([a-z]+)\s*=\s*"?([^"]*)"?\s*$/i.exec(part);
    if (match) found[match[1]!.toLowerCase()] = match[2]!;
  }
  return found;
}

export function exampleAnswer(op: MockOperation, request: Request): Response {
  const prefer = preferences(request.headers.get('prefer'));
  const status = prefer.code ? Number(prefer.code) : op.successStatus;
  if (!op.examples.has(status)) {
    return errorAnswer(400, [{ field: 'Prefer', reason: `Prefer: code=${prefer.code} is not a status ${op.operationId} declares; it declares ${[...op.examples.keys()].join(', ')}` }]);
  }
  const examples = op.examples.get(status)!;
  const chosen = prefer.example ? examples.find((e) => e.name === prefer.example) : examples[0];
  if (prefer.example && !chosen) {
    const names = [...op.examples].flatMap(([code, list]) => list.map((e) => `${e.name} (${code})`));
    return errorAnswer(400, [{ field: 'Prefer', reason: `Prefer: example=${prefer.example} is not an example of ${op.operationId} ${status}; it has ${names.join(', ') || 'none'}` }]);
  }
  if (!chosen || status === 204) return new HttpResponse(null, { status });
  return HttpResponse.json(chosen.value as any, { status });
}
