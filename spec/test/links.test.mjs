// The links of every create operation work on the spec's own examples: each names an operation
// of the bundle, maps exactly that operation's path parameters, and, evaluated on the create's
// response examples and parameter examples, yields values the target's parameters accept. The
// house rule house-create-links checks which links must exist; this checks that they lead where
// they say.
import { describe, expect, it } from 'vitest';
import { createSchemaViews, pointerGet } from '../lib/schema-views.mjs';
import { bodiesOf, mediaExamples, operations, parameterExamples } from '../lib/walk.mjs';
import { loadBundle } from './helpers.mjs';

const bundle = loadBundle();

function brokenLinks(document) {
  const views = createSchemaViews(document);
  const byId = new Map([...operations(document)].map((op) => [op.operation.operationId, op]));
  const failures = [];
  let checked = 0;
  for (const op of operations(document)) {
    const ok = op.operation.responses && op.operation.responses['200'];
    for (const [name, link] of Object.entries((ok && ok.links) || {})) {
      const where = `${op.operation.operationId} → ${name}`;
      const target = byId.get(link.operationId);
      if (!target) { failures.push(`${where}: no operation "${link.operationId}"`); continue; }
      const pathParams = target.parameters.filter((p) => p.in === 'path');
      const mapped = Object.keys(link.parameters || {});
      const wanted = pathParams.map((p) => p.name);
      if (mapped.sort().join() !== [...wanted].sort().join()) failures.push(`${where}: maps [${mapped}] but the target's path parameters are [${wanted}]`);
      const responses = bodiesOf(document, op).filter((b) => b.kind === 'response' && b.status === '200');
      for (const body of responses) {
        for (const example of mediaExamples(document, body.media)) {
          for (const parameter of pathParams) {
            const expression = (link.parameters || {})[parameter.name];
            let value;
            if (typeof expression === 'string' && expression.startsWith('$response.body#')) {
              value = pointerGet(example.value, expression.slice('$response.body#'.length));
            } else if (typeof expression === 'string' && expression.startsWith('$request.path.')) {
              const source = op.parameters.find((p) => p.in === 'path' && p.name === expression.slice('$request.path.'.length));
              value = source ? parameterExamples(document, source)[0] : undefined;
            }
            checked++;
            // A path value travels as text: an integer id fills a parameter typed string (the
            // domain id of clone and zone file) as its decimal form.
            const accepts = (v) => views.validate('request', `${parameter.pointer}/schema`, v);
            let result = value === undefined ? { valid: false, errors: [{ message: `${expression} gives nothing` }] } : accepts(value);
            if (!result.valid && typeof value === 'number' && accepts(String(value)).valid) result = { valid: true };
            if (!result.valid) failures.push(`${where} on example "${example.name}": ${parameter.name} = ${JSON.stringify(value)}: ${result.errors.map((e) => e.message).join('; ')}`);
          }
        }
      }
    }
  }
  return { checked, failures };
}

describe('links of create operations', () => {
  it('lead to operations that accept the values they carry', () => {
    const { checked, failures } = brokenLinks(bundle);
    expect(checked).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  it('are reported when they name a missing operation, a missing field or a parameter the target lacks (the check can fail)', () => {
    const broken = structuredClone(bundle);
    const links = (path) => broken.paths[path].post.responses['200'].links;
    links('/volumes').getVolume.parameters.volumeId = '$response.body#/uuid';
    links('/volumes').deleteVolume.operationId = 'removeVolume';
    links('/domains/{domainId}/records').getDomainRecord.parameters.extra = '$request.path.domainId';
    const { failures } = brokenLinks(broken);
    expect(failures.some((f) => f.startsWith('createVolume → getVolume') && f.includes('gives nothing'))).toBe(true);
    expect(failures.some((f) => f.startsWith('createVolume → deleteVolume: no operation "removeVolume"'))).toBe(true);
    expect(failures.some((f) => f.startsWith('createDomainRecord → getDomainRecord: maps'))).toBe(true);
  });
});
