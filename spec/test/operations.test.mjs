// The bundle holds exactly the operations of the requirements for every area specified so far,
// each with the scopes the requirements' tables give, under both security schemes.
import { describe, expect, it } from 'vitest';
import { operations } from '../lib/walk.mjs';
import { requiredOperations } from './fixtures/requirements-operations.mjs';
import { loadBundle } from './helpers.mjs';

// Areas whose operations are in the spec. An area issue adds its tag here when it lands; the
// last test below keeps this list honest.
const SPECIFIED_AREAS = [
  'Balancers',
  'Compute',
  'Domains',
  'Images',
  'Managed',
  'Object Storage',
  'Regions',
  'Support',
  'Tags',
  'Volumes',
];

const bundle = loadBundle();
const inBundle = [...operations(bundle)];
const key = (method, path) => `${method.toUpperCase()} ${path}`;

function securityOf(operation) {
  const requirements = operation.security;
  if (requirements.length === 0) return { kind: 'public' };
  const optional = requirements.some((r) => Object.keys(r).length === 0);
  const token = requirements.find((r) => r.personalAccessToken);
  const oauth = requirements.find((r) => r.oauth);
  return { kind: optional ? 'optional' : 'required', token: token && [...token.personalAccessToken].sort(), oauth: oauth && [...oauth.oauth].sort() };
}

describe('operations of the requirements', () => {
  const expected = SPECIFIED_AREAS.flatMap((area) => requiredOperations[area].map((row) => ({ area, row })));

  it('are all in the bundle, and nothing else is', () => {
    const want = expected.map(({ row }) => key(row[0], row[1])).sort();
    const have = inBundle.map((op) => key(op.method, op.path)).sort();
    expect(have).toEqual(want);
  });

  it.each(expected.map(({ area, row }) => [key(row[0], row[1]), area, row]))('%s has the scopes of the requirements', (_, area, [method, path, scopes, optional]) => {
    const op = inBundle.find((o) => key(o.method, o.path) === key(method, path));
    expect(op, `${key(method, path)} is missing`).toBeDefined();
    expect(op.operation.tags).toEqual([area]);
    const security = securityOf(op.operation);
    if (scopes === 'public') {
      expect(security).toEqual({ kind: 'public' });
    } else {
      expect(security).toEqual({ kind: optional ? 'optional' : 'required', token: [...scopes].sort(), oauth: [...scopes].sort() });
    }
  });

  it('lists every area with operations in SPECIFIED_AREAS', () => {
    const tagged = new Set(inBundle.flatMap((op) => op.operation.tags));
    expect([...tagged].sort()).toEqual([...SPECIFIED_AREAS].sort());
  });
});
