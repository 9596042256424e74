// Authentication and authorization, derived from the bundle for every implemented operation:
// 401 without a token, with a malformed header or an unknown token; 403 naming the scope when the
// token lacks one (each scope of two-scope operations separately); 403 naming the grant or the
// user status that `x-account-grants` requires; public operations need nothing, optional ones
// refuse only bad tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref, mediaExamples, operations, parameterExamples } from '@cloudapi/spec/walk';
import * as areas from '../../src/areas/index.js';
import { loadBundle } from '@cloudapi/spec/bundle';
import { describeBundle } from '../../src/core/spec.js';
import type { OperationSpec } from '../../src/core/spec.js';
import { startTestServer, TOKENS } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

const document = loadBundle();
const spec = describeBundle(document);
const implemented = new Set(Object.values(areas).flatMap((area) => Object.keys(area.handlers)));
const ops = spec.operations.filter((op) => implemented.has(op.operationId));
const allScopes = [...spec.scopes].sort();

/** A token with every scope but `scope` (and, for a read_only scope, its read_write too). */
const withoutScope = (scope: string) => {
  const removed = new Set([scope, scope.replace(/:read_only$/, ':read_write')]);
  return { token: `all-but-${scope}`, scopes: allScopes.filter((s) => !removed.has(s)).join(' '), grants: 'all', restricted: false };
};

/** A request for the operation built from the spec's examples. */
function exampleRequest(op: OperationSpec) {
  const walked = [...operations(document)].find((o) => o.operation.operationId === op.operationId)!;
  let path = op.path;
  for (const parameter of walked.parameters.filter((p) => p.in === 'path')) {
    const value = parameterExamples(document, parameter)[0];
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
  }
  let body: unknown;
  if (walked.operation.requestBody) {
    const [requestBody] = deref(document, walked.operation.requestBody);
    const media = requestBody.content['application/json'];
    body = media ? mediaExamples(document, media)[0]?.value : undefined;
  }
  return { method: op.method, path, body };
}

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ name: 'auth', tokens: [...Object.values(TOKENS), ...allScopes.map(withoutScope)] });
});
afterAll(() => t?.close());

describe('authentication and scopes, per operation', () => {
  it('covers every implemented operation', () => {
    expect(ops.length).toBe(implemented.size);
    expect(ops.length).toBeGreaterThan(0);
  });

  for (const op of ops) {
    const label = `${op.operationId} (${op.method} ${op.path})`;
    if (op.access === 'public') {
      it(`${label} is public: no token needed`, async () => {
        const { method, path, body } = exampleRequest(op);
        const answer = await t.as(null).request(method, path, { body });
        expect([401, 403]).not.toContain(answer.status);
      });
      continue;
    }
    it(`${label} refuses a missing (${op.access === 'secured' ? '401' : 'optional'}), malformed or unknown token with 401`, async () => {
      const { method, path, body } = exampleRequest(op);
      const none = await t.as(null).request(method, path, { body });
      if (op.access === 'secured') {
        expect(none.status).toBe(401);
        expect(none.body.errors[0].reason).toMatch(/token/);
      } else {
        expect([401, 403]).not.toContain(none.status);
      }
      for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer two words', `Bearer ${TOKENS.full.token}x`]) {
        const bad = await t.as(null).request(method, path, { body, headers: { authorization } });
        expect(bad.status, authorization).toBe(401);
        expect(Object.keys(bad.body)).toEqual(['errors']);
      }
    });

    for (const scope of op.scopeAlternatives[0] ?? []) {
      it(`${label} answers 403 naming ${scope} to a token without it`, async () => {
        const { method, path, body } = exampleRequest(op);
        const answer = await t.as({ token: `all-but-${scope}` }).request(method, path, { body });
        expect(answer.status).toBe(403);
        expect(answer.body.errors[0].reason).toContain(scope);
      });
    }

    for (const grant of op.grants.filter((g) => !g.includes(':'))) {
      it(`${label} answers 403 naming ${grant === 'unrestricted_user' ? 'the unrestricted user' : grant} when the user lacks it`, async () => {
        const { method, path, body } = exampleRequest(op);
        const who = grant === 'unrestricted_user' ? 'restricted' : 'noGrants';
        const answer = await t.as(who).request(method, path, { body });
        expect(answer.status).toBe(403);
        expect(answer.body.errors[0].reason).toMatch(grant === 'unrestricted_user' ? /unrestricted/ : new RegExp(grant));
      });
    }
  }
});

describe('tokens', () => {
  it('the scheme name is case-insensitive', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer', 'bEaReR']) {
      const answer = await t.as(null).get('/volumes', { headers: { authorization: `${scheme} ${TOKENS.full.token}` } });
      expect(answer.status, scheme).toBe(200);
    }
  });

  it('read_write implies read_only', async () => {
    const rw = await startTestServer({ name: 'auth-rw', tokens: [{ token: 'rw', scopes: 'volumes:read_write' }] });
    try {
      expect((await rw.as({ token: 'rw' }).get('/volumes')).status).toBe(200);
      expect((await rw.as({ token: 'rw' }).get('/tags')).status).toBe(403);
    } finally {
      await rw.close();
    }
  });

  it('an operation needing two scopes needs both', async () => {
    const attach = spec.byId.get('attachVolume')!;
    expect(attach.scopeAlternatives[0]).toEqual(['volumes:read_write', 'computes:read_write']);
    const onlyVolumes = await t.as({ token: 'all-but-computes:read_write' }).post('/volumes/1/attach', { compute_id: 1 });
    expect(onlyVolumes.status).toBe(403);
    expect(onlyVolumes.body.errors[0].reason).toContain('computes:read_write');
    expect(onlyVolumes.body.errors[0].reason).not.toContain('volumes:read_write');
  });
});
