// The breaking-change check: each kind of change a client can trip over is found, additive
// changes are not, and the command line builds the base from a git ref.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareDocuments } from '../lib/breaking.mjs';
import { createSourceIndex } from '../lib/sources.mjs';
import { loadBundle, specDir } from './helpers.mjs';

const bundle = loadBundle();
const schemas = (doc) => doc.components.schemas;
const changed = (mutate) => {
  const after = structuredClone(bundle);
  mutate(after);
  return compareDocuments(bundle, after);
};
const codes = (result) => [...new Set(result.findings.map((f) => `${f.level}:${f.code}`))].sort();

// [what changes, mutation, the finding it must give (level:code), an operation it must name]
const cases = [
  ['an operation is removed', (d) => { delete d.paths['/regions'].get; }, 'breaking:operation-removed', 'GET /regions'],
  ['a public operation needs a token', (d) => { d.paths['/regions'].get.security = [{ personalAccessToken: ['account:read_only'] }, { oauth: ['account:read_only'] }]; }, 'breaking:security-tightened', 'GET /regions'],
  ['an operation needs another scope', (d) => { d.paths['/volumes'].get.security = [{ personalAccessToken: ['volumes:read_only', 'computes:read_only'] }, { oauth: ['volumes:read_only', 'computes:read_only'] }]; }, 'breaking:scope-added', 'GET /volumes'],
  ['the success status changes', (d) => { const ok = d.paths['/volumes'].post.responses; ok['201'] = ok['200']; delete ok['200']; }, 'breaking:success-status-removed', 'POST /volumes'],
  ['a query parameter becomes required', (d) => { d.paths['/regions'].get.parameters = [{ name: 'country', in: 'query', required: true, description: 'x', schema: { type: 'string' } }]; }, 'breaking:parameter-required', 'GET /regions'],
  ['a parameter accepts less', (d) => { d.components.parameters.PageSize.schema.maximum = 50; }, 'breaking:parameter-range-narrowed', 'GET /volumes'],
  ['a request field becomes required', (d) => { schemas(d).VolumeCreateRequest.required.push('size'); }, 'breaking:request-property-required', 'POST /volumes'],
  ['a request field accepts less', (d) => { schemas(d).VolumeCreateRequest.properties.label.maxLength = 16; }, 'breaking:request-range-narrowed', 'POST /volumes'],
  ['a request enum loses a value', (d) => { schemas(d).ImageUpdateRequest.properties.status.enum = ['available']; }, 'breaking:request-enum-narrowed', 'PUT /images/{imageId}'],
  ['a request field changes type', (d) => { schemas(d).VolumeResizeRequest.properties.size.type = 'string'; }, 'breaking:request-type-narrowed', 'POST /volumes/{volumeId}/resize'],
  ['a field of a closed request body is removed', (d) => { delete schemas(d).VolumeUpdateRequest.properties.tags; }, 'breaking:request-property-removed', 'PUT /volumes/{volumeId}'],
  ['a response field is removed', (d) => { delete schemas(d).Region.properties.country; schemas(d).Region.required = schemas(d).Region.required.filter((n) => n !== 'country'); }, 'breaking:response-property-removed', 'GET /regions/{regionId}'],
  ['a response field is no longer always present', (d) => { schemas(d).Volume.required = schemas(d).Volume.required.filter((n) => n !== 'size'); }, 'breaking:response-property-optional', 'GET /volumes/{volumeId}'],
  ['a response field may be null', (d) => { schemas(d).Volume.properties.size.type = ['integer', 'null']; }, 'breaking:response-type-widened', 'GET /volumes/{volumeId}'],
  ['a response field nested in a list changes', (d) => { delete schemas(d).Region.properties.resolvers.properties.ipv6; }, 'breaking:response-property-removed', 'GET /regions'],
  ['a response enum gains a value', (d) => { schemas(d).Volume.properties.status.enum.push('migrating'); }, 'warning:response-enum-widened', 'GET /volumes'],
];

describe('compareDocuments', () => {
  it('finds nothing between a bundle and itself', () => {
    expect(compareDocuments(bundle, structuredClone(bundle))).toEqual({ findings: [], added: [] });
  });

  it.each(cases)('when %s', (_, mutate, expected, operation) => {
    const result = changed(mutate);
    expect(codes(result)).toContain(expected);
    expect(result.findings.filter((f) => `${f.level}:${f.code}` === expected).map((f) => f.operation)).toContain(operation);
  });

  // [what changes, mutation, code, the source file the finding must point at, what its line holds]
  const sources = createSourceIndex(specDir);
  it.each([
    ['an operation is removed', (d) => { delete d.paths['/regions'].get; }, 'operation-removed', 'paths/regions/regions.yaml', /^\S/],
    ['a public operation needs a token', (d) => { d.paths['/regions'].get.security = [{ personalAccessToken: ['x:read_only'] }]; }, 'security-tightened', 'paths/regions/regions.yaml', /^\s+security:/],
    ['a request field becomes required', (d) => { schemas(d).VolumeCreateRequest.required.push('size'); }, 'request-property-required', 'components/schemas/volumes/VolumeCreateRequest.yaml', /^required:/],
    ['a request field accepts less', (d) => { schemas(d).VolumeCreateRequest.properties.label.maxLength = 16; }, 'request-range-narrowed', 'components/schemas/volumes/VolumeCreateRequest.yaml', /^\s+maxLength:/],
    ['a response field is removed', (d) => { delete schemas(d).Region.properties.country; }, 'response-property-removed', 'components/schemas/regions/Region.yaml', /^properties:/],
    ['a response field is no longer always present', (d) => { schemas(d).Volume.required = schemas(d).Volume.required.filter((n) => n !== 'size'); }, 'response-property-optional', 'components/schemas/volumes/Volume.yaml', /^required:/],
    ['a response field may be null', (d) => { schemas(d).Volume.properties.size.type = ['integer', 'null']; }, 'response-type-widened', 'components/schemas/volumes/Volume.yaml', /^\s+type:/],
  ])('points at the source when %s', (_, mutate, code, file, lineText) => {
    const finding = changed(mutate).findings.find((f) => f.code === code);
    expect(finding?.pointer, `a ${code} finding with a pointer`).toBeTruthy();
    const at = sources.locate(finding.pointer);
    expect(at.file).toBe(file);
    const text = readFileSync(path.join(specDir, file), 'utf8').split('\n')[at.line - 1];
    expect(text).toMatch(lineText);
  });

  it('does not call additive changes breaking', () => {
    const result = changed((d) => {
      d.paths['/regions/{regionId}/vlans'] = structuredClone(d.paths['/regions/{regionId}']); // a new operation
      schemas(d).VolumeCreateRequest.properties.encrypted = { type: 'boolean', description: 'x' }; // a new optional request field
      schemas(d).Volume.properties.encrypted = { type: 'boolean', description: 'x' }; // a new response field
      schemas(d).VolumeCreateRequest.properties.label.maxLength = 64; // a request field accepts more
      schemas(d).ImageUpdateRequest.properties.status.oneOf[0].enum.push('archived'); // a request enum gains a value
      schemas(d).Volume.properties.status.enum = schemas(d).Volume.properties.status.enum.filter((s) => s !== 'contact_support'); // a response answers less
    });
    expect(result.findings).toEqual([]);
    expect(result.added).toEqual(['GET /regions/{regionId}/vlans']);
  });
});

describe('what moves without changing what clients send or read', () => {
  it('does not report a JSON header moved from `content` to `contentSchema`, a renamed allOf part or a renamed path parameter', () => {
    const before = structuredClone(bundle);
    schemas(before).VolumeCreateRequest.allOf = [{ $ref: '#/components/schemas/TagLabel' }];
    const listFilter = (d) => d.paths['/volumes'].get.parameters.find((p) => p.name === 'X-Filter');
    // The bundle declares X-Filter as a string with its contentSchema; before, as JSON content.
    const declared = listFilter(before);
    declared.content = { 'application/json': { schema: declared.schema.contentSchema } };
    delete declared.schema;
    const result = compareDocuments(before, ((d) => {
      const filter = listFilter(d);
      filter.schema = { type: 'string', contentMediaType: 'application/json', contentSchema: filter.content['application/json'].schema };
      delete filter.content;
      schemas(d).TagLabelRenamed = schemas(d).TagLabel;
      schemas(d).VolumeCreateRequest.allOf = [{ $ref: '#/components/schemas/TagLabelRenamed' }];
      d.paths = Object.fromEntries(Object.entries(d.paths).map(([key, item]) => [key.replace('{volumeId}', '{id}'), item]));
      d.components.parameters.VolumeId.name = 'id';
      return d;
    })(structuredClone(before)), { all: true });
    expect(result.findings.map((f) => `${f.level}:${f.code}`).filter((c) => !c.startsWith('info:parameter-renamed'))).toEqual([]);
    expect(result.added).toEqual([]);
  });

  it('does not report a nullable field moved into a component, `anyOf: [{ $ref }, { type: null }]`', () => {
    // A response field (`type: [number, null]`, a minimum, a format) and a request field's enum.
    const extract = (d, owner, field, name) => {
      const { description, type, ...rules } = schemas(d)[owner].properties[field];
      schemas(d)[name] = { type: type.filter((t) => t !== 'null'), ...rules, ...(rules.enum ? { enum: rules.enum.filter((v) => v !== null) } : {}) };
      schemas(d)[owner].properties[field] = { description, anyOf: [{ $ref: `#/components/schemas/${name}` }, { type: 'null' }] };
    };
    // And a nullable enum: a volume's status that may be null.
    const before = structuredClone(bundle);
    const status = schemas(before).Volume.properties.status;
    Object.assign(status, { type: ['string', 'null'], enum: [...status.enum, null] });
    const result = compareDocuments(before, ((d) => {
      extract(d, 'BalancerTransfer', 'in', 'TransferVolume');
      extract(d, 'Balancer', 'ipv6', 'IPv6Address');
      extract(d, 'Volume', 'status', 'VolumeStatus');
      return d;
    })(structuredClone(before)));
    expect(result.findings.map((f) => `${f.level}:${f.code} ${f.where}`)).toEqual([]);
  });

  it('does not report a default style written out, nor `explode` of a single value (both ways write it alike)', () => {
    const result = changed((d) => Object.assign(d.components.parameters.PageSize, { style: 'form', explode: false }));
    expect(codes(result)).toEqual([]);
    // The control: the same change on a list of values is written another way (a type changed
    // alone is the schema's finding, not this one).
    const asList = (d, fields = {}) => { const p = d.components.parameters.PageSize; Object.assign(p, { schema: { type: 'array', items: p.schema }, ...fields }); return d; };
    expect(codes(changed((d) => asList(d)))).not.toContain('breaking:parameter-serialization-changed');
    expect(codes(compareDocuments(asList(structuredClone(bundle)), asList(structuredClone(bundle), { explode: false })))).toEqual(['breaking:parameter-serialization-changed']);
  });
});

describe('npm run breaking', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'breaking-cli-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const baseFile = path.join(scratch, 'base.json');
  const cli = (args) => {
    try {
      return { code: 0, out: execFileSync(process.execPath, [path.join(specDir, 'scripts/breaking.mjs'), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
    } catch (error) {
      return { code: error.status, out: `${error.stdout}${error.stderr}` };
    }
  };

  it('bundles the spec of a git ref and reports what the current bundle breaks, failing with --fail', () => {
    // A repository whose committed spec is the current one; the "after" bundle lacks an operation.
    const repo = path.join(scratch, 'repo');
    for (const part of ['openapi.yaml', 'paths', 'components', 'redocly.yaml']) cpSync(path.join(specDir, part), path.join(repo, 'spec', part), { recursive: true });
    const git = (...args) => execFileSync('git', ['-C', repo, ...args], { stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
    const after = structuredClone(bundle);
    delete after.paths['/regions'].get;
    const afterFile = path.join(scratch, 'after.json');
    writeFileSync(afterFile, JSON.stringify(after));
    const warned = cli(['--repo', repo, '--base', 'HEAD', '--after', afterFile]);
    expect(warned.code).toBe(0);
    expect(warned.out).toMatch(/1 breaking/);
    expect(warned.out).toMatch(/GET \/regions \(listRegions\) was removed/);
    expect(warned.out).toMatch(/^Compared .*after\.json with HEAD \([0-9a-f]{7} "base"\)/);
    // --fail turns the same finding into exit 1; the base's source does not matter to it, so a
    // bundle file stands in for a second bundling of the ref.
    writeFileSync(baseFile, JSON.stringify(bundle));
    expect(cli(['--base-file', baseFile, '--after', afterFile, '--fail']).code).toBe(1);
    expect(cli(['--repo', repo, '--base', 'no-such-ref', '--after', afterFile]).out).toMatch(/cannot read the spec at "no-such-ref"/);
  }, 120_000);

  it('compares with a bundle file and passes when nothing breaks', () => {
    writeFileSync(baseFile, JSON.stringify(bundle));
    const result = cli(['--base-file', baseFile, '--fail']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/✔ no breaking change compared with .*base\.json/);
  });
});
