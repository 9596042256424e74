// The bundle model: one place that finds and reads the bundle, its base path, and each
// operation's method, path, parameters, bodies, responses and security.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { basePathOf, defaultBundleFile, loadBundle, operationViews, securityOf } from '../lib/bundle.mjs';
import { specDir } from './helpers.mjs';

const bundle = loadBundle();
const views = operationViews(bundle);
const byId = new Map(views.map((v) => [v.operationId, v]));
const scratchDirs = [];
/** A new temporary folder, removed when the file's tests end. */
const scratch = () => { const dir = mkdtempSync(path.join(tmpdir(), 'bundle-model-')); scratchDirs.push(dir); return dir; };
afterAll(() => { for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true }); });

describe('loadBundle', () => {
  it("reads this package's own dist/openapi.json by default", () => {
    expect(defaultBundleFile()).toBe(path.join(specDir, 'dist', 'openapi.json'));
    expect(bundle.info.version).toBe('4.115.0');
  });

  it('names every file npm run build writes, from the package exports, and no other', () => {
    for (const name of ['openapi.yaml', 'openapi.3.0.json', 'openapi.3.0.yaml']) {
      expect(defaultBundleFile(name)).toBe(path.join(specDir, 'dist', name));
    }
    expect(() => defaultBundleFile('package.json')).toThrow('@cloudapi/spec publishes no bundle file named package.json');
  });

  it('reads another bundle, as JSON or YAML', () => {
    const dir = scratch();
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ openapi: '3.1.0', servers: [{ url: '/x' }] }));
    writeFileSync(path.join(dir, 'a.yaml'), 'openapi: 3.1.0\nservers:\n  - url: https://api.example.com/v9/\n');
    expect(basePathOf(loadBundle(path.join(dir, 'a.json')))).toBe('/x');
    expect(basePathOf(loadBundle(path.join(dir, 'a.yaml')))).toBe('/v9');
  });

  it('names the file when it is missing or broken', () => {
    const dir = scratch();
    const missing = path.join(dir, 'none.json');
    expect(() => loadBundle(missing)).toThrow(`the bundle ${missing} cannot be read`);
    writeFileSync(path.join(dir, 'broken.json'), '{"openapi": ');
    expect(() => loadBundle(path.join(dir, 'broken.json'))).toThrow(/broken\.json is not valid JSON/);
  });
});

describe('basePathOf', () => {
  it("is the path of the first server URL, without a trailing slash", () => {
    expect(basePathOf(bundle)).toBe('/v4');
    expect(basePathOf({ servers: [{ url: 'https://{host}/api/{version}/', variables: { host: { default: 'h' }, version: { default: 'v2' } } }] })).toBe('/api/v2');
    expect(basePathOf({ servers: [{ url: 'https://example.com' }] })).toBe('');
    expect(basePathOf({})).toBe('');
  });
});

describe('operation views', () => {
  it('holds every operation of the bundle once', () => {
    const count = Object.values(bundle.paths).reduce((n, item) => n + ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).length, 0);
    expect(views).toHaveLength(count);
    expect(byId.size).toBe(count);
  });

  it('gives method, path, parameters (path-level ones merged in), request body and responses', () => {
    const view = byId.get('updateVolume');
    expect(view).toMatchObject({ method: 'put', path: '/volumes/{volumeId}', tags: ['Volumes'] });
    expect(view.parameters.map((p) => `${p.in}:${p.name}`)).toContain('path:volumeId');
    expect(view.requestBody.required).toBe(true);
    expect([...view.requestBody.media.keys()]).toEqual(['application/json']);
    expect(view.requestBody.media.get('application/json')).toMatch(/^#\/.*\/requestBody\/content\/application~1json\/schema$/);
    expect(view.responses.map((r) => r.status)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(view.success).toEqual({ status: 200, mediaType: 'application/json', schemaPointer: expect.stringMatching(/responses\/200\/content\/application~1json\/schema$/) });
    expect(byId.get('listVolumes').requestBody).toBeNull();
  });

  it('gives each operation its security: scopes, public and optional authentication', () => {
    expect(byId.get('updateVolume').security).toEqual({ access: 'secured', scopes: ['volumes:read_write'], scopeAlternatives: [['volumes:read_write'], ['volumes:read_write']] });
    const publicOps = views.filter((v) => v.security.access === 'public');
    expect(publicOps.length).toBeGreaterThan(0);
    for (const op of publicOps) expect(op.security.scopes).toEqual([]);
    expect(views.some((v) => v.security.access === 'optional')).toBe(true);
  });

  it('reads security from the operation, else the document', () => {
    const document = { security: [{ bearer: ['a:read'] }] };
    expect(securityOf(document, {})).toEqual({ access: 'secured', scopes: ['a:read'], scopeAlternatives: [['a:read']] });
    expect(securityOf(document, { security: [] }).access).toBe('public');
    expect(securityOf(document, { security: [{}, { bearer: ['a:read', 'b:read'] }] })).toEqual({ access: 'optional', scopes: ['a:read', 'b:read'], scopeAlternatives: [['a:read', 'b:read']] });
  });
});
