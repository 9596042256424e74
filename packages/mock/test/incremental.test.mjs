// A reload re-reads only the path items a rewritten document changes (src/incremental.mjs): which
// those are, the part of the document Prism is given for them, and that the operations it serves
// then are exactly those of a full load of the new document.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { changedPaths, mergeOperations, partialDocument } from '../src/incremental.mjs';
import { mockDocumentPath } from '../src/index.mjs';

const require = createRequire(import.meta.url);
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http');
const original = JSON.parse(readFileSync(mockDocumentPath, 'utf8'));
const edited = (edit) => { const next = structuredClone(original); edit(next); return next; };
const sorted = (set) => [...set].sort();
const lastPath = Object.keys(original.paths).at(-1);
// The path items that reach the Region schema, found the long way: by text.
const reachingRegion = Object.keys(original.paths).filter((key) => {
  const seen = new Set();
  const reaches = (value) => JSON.stringify(value).match(/#\/components\/[^"]+/g)?.some((ref) => {
    if (ref === '#/components/schemas/Region') return true;
    if (seen.has(ref)) return false;
    seen.add(ref);
    const [, kind, name] = ref.split('/').slice(1);
    return reaches(original.components[kind]?.[name] ?? null);
  }) ?? false;
  return reaches(original.paths[key]);
});

describe('changedPaths', () => {
  it('finds nothing in the same document', () => {
    expect(changedPaths(original, structuredClone(original))).toEqual({ all: false, paths: new Set() });
  });

  it('names an edited, an added and a removed path item', () => {
    const next = edited((d) => {
      d.paths['/v4/regions'].get.summary = 'Changed';
      d.paths['/v4/new'] = d.paths['/v4/regions'];
      delete d.paths[lastPath];
    });
    expect(sorted(changedPaths(original, next).paths)).toEqual(sorted([lastPath, '/v4/new', '/v4/regions']));
  });

  it('names every path item that reaches a changed component, through other components too', () => {
    expect(reachingRegion.length).toBeGreaterThan(1);
    const next = edited((d) => { d.components.schemas.Region.properties.extra = { type: 'string', description: 'x' }; });
    expect(sorted(changedPaths(original, next).paths)).toEqual(sorted(reachingRegion));
  });

  it('asks for a full load when something every operation may depend on changed', () => {
    expect(changedPaths(original, edited((d) => { d.info.title = 'Other'; }))).toEqual({ all: true });
    expect(changedPaths(original, edited((d) => { d.servers = [{ url: '/other' }]; }))).toEqual({ all: true });
    expect(changedPaths(original, edited((d) => { d.components.securitySchemes.extra = { type: 'http', scheme: 'basic' }; }))).toEqual({ all: true });
  });
});

describe('partialDocument', () => {
  it('keeps the path items asked for, the components they reach and the security schemes, as a copy', () => {
    const partial = partialDocument(original, new Set(['/v4/regions/{regionId}', '/v4/gone']));
    expect(Object.keys(partial.paths)).toEqual(['/v4/regions/{regionId}']);
    expect(partial.components.schemas.Region).toEqual(original.components.schemas.Region);
    expect(partial.components.schemas.Volume).toBeUndefined();
    expect(partial.components.securitySchemes).toEqual(original.components.securitySchemes);
    partial.components.schemas.Region.description = 'written by Prism';
    expect(original.components.schemas.Region.description).not.toBe('written by Prism');
  });
});

describe('a reload of what changed', () => {
  it('gives Prism exactly the operations of a full load of the new document', async () => {
    const next = edited((d) => {
      d.components.schemas.Region.properties.extra = { type: 'string', description: 'x' };
      d.paths['/v4/regions'].get.summary = 'Changed';
      delete d.paths[lastPath];
    });
    const { paths } = changedPaths(original, next);
    expect(paths.has(lastPath) && paths.size < Object.keys(original.paths).length / 2).toBe(true);
    const before = await getHttpOperationsFromSpec(structuredClone(original));
    const fresh = await getHttpOperationsFromSpec(partialDocument(next, paths));
    const merged = mergeOperations(before, fresh, paths);
    const full = await getHttpOperationsFromSpec(structuredClone(next));
    const byKey = (list) => Object.fromEntries(list.map((op) => [`${op.method} ${op.path}`, JSON.parse(JSON.stringify(op))]));
    expect(byKey(merged)).toEqual(byKey(full));
  }, 60_000);
});
