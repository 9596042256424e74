// Every house rule of the style guide, fed a fragment that breaks it: the rule must flag it.
// A rule that silently stops working (a typo in a JSONPath, a function that returns nothing)
// fails here. All fragments go through one run of each real CLI, with the real configuration.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintFiles } from '../scripts/run-linters.mjs';
import { baseDocument } from './fixtures/style-base.mjs';

const widgets = (doc) => doc.paths['/widgets'];
const widget = (doc) => doc.paths['/widgets/{widgetId}'];
const schemas = (doc) => doc.components.schemas;

// [tool/rule, what is broken, mutation of the base document]
const cases = [
  ['spectral/house-operation-id-verb', 'a POST named get...', (d) => { widgets(d).post.operationId = 'getWidgetNew'; widgets(d).post.summary = 'Get a new widget'; }],
  ['spectral/house-operation-id-verb', 'a summary whose verb differs from the operationId', (d) => { widgets(d).post.summary = 'Make a widget'; }],
  ['spectral/house-operation-security', 'an operation without security', (d) => { delete widgets(d).get.security; }],
  ['spectral/house-operation-security', 'different scopes under the two schemes', (d) => { widgets(d).get.security = [{ personalAccessToken: ['widgets:read_only'] }, { oauth: ['widgets:read_write'] }]; }],
  ['spectral/house-operation-security', 'a scope the oauth flows do not define', (d) => { widgets(d).get.security = [{ personalAccessToken: ['gadgets:read_only'] }, { oauth: ['gadgets:read_only'] }]; }],
  ['spectral/house-operation-security', 'only one of the two schemes', (d) => { widgets(d).get.security = [{ oauth: ['widgets:read_only'] }]; }],
  ['spectral/house-error-responses', 'no 429', (d) => { delete widgets(d).get.responses[429]; }],
  ['spectral/house-error-responses', 'no 401 on a secured operation', (d) => { delete widgets(d).post.responses[401]; }],
  ['spectral/house-error-responses', 'no 404 on a path with a parameter', (d) => { delete widget(d).get.responses[404]; }],
  ['spectral/house-error-responses', 'no 400 with a request body', (d) => { delete widgets(d).post.responses[400]; }],
  ['spectral/house-error-responses', 'no 413 with a request body', (d) => { delete widgets(d).post.responses[413]; }],
  ['spectral/house-error-responses', 'a 4xx that is not the error body', (d) => { widget(d).get.responses[404] = { description: 'Gone.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' }, examples: { w: { value: { id: 1, label: 'abc', created: '2018-01-01T00:01:01' } } } } } }; }],
  ['spectral/house-create-links', 'a create without links', (d) => { delete widgets(d).post.responses[200].links; }],
  ['spectral/house-create-links', 'a link whose key is not taken from the response', (d) => { widgets(d).post.responses[200].links.getWidget.parameters.widgetId = '$request.path.widgetId'; }],
  ['spectral/house-create-links', 'a link to a field the response does not have', (d) => { widgets(d).post.responses[200].links.getWidget.parameters.widgetId = '$response.body#/uuid'; }],
  ['spectral/house-create-links', 'a link without a description', (d) => { delete widgets(d).post.responses[200].links.getWidget.description; }],
  ['spectral/house-create-links', 'a link named after no operation below the new resource', (d) => { const { links } = widgets(d).post.responses[200]; links.readWidget = links.getWidget; delete links.getWidget; }],
  ['spectral/house-list-pagination', 'a paginated list without page_size', (d) => { widgets(d).get.parameters = [{ $ref: '#/components/parameters/Page' }]; delete d.components.parameters.PageSize; }],
  ['spectral/house-filter-header', 'a list with filterable fields without X-Filter', (d) => { widgets(d).get.parameters.pop(); }],
  ['spectral/house-filter-header', 'X-Filter on a list whose items lost their marks', (d) => { delete schemas(d).Widget.properties.label['x-filterable']; }],
  ['spectral/house-filter-header', 'X-Filter as a plain string, its JSON undescribed', (d) => { const p = d.components.parameters.XFilter; p.schema = { type: 'string' }; }],
  ['spectral/house-filter-header', 'X-Filter described with JSON content instead of a string schema', (d) => { const p = d.components.parameters.XFilter; p.content = { 'application/json': { schema: p.schema.contentSchema } }; delete p.schema; }],
  ['spectral/house-media-examples', 'a request body without examples', (d) => { delete widgets(d).post.requestBody.content['application/json'].examples; }],
  ['spectral/house-media-examples', 'a response without examples', (d) => { delete widget(d).get.responses[200].content['application/json'].examples; }],
  ['spectral/house-response-required', 'a response object without required', (d) => { delete schemas(d).Widget.required; }],
  ['spectral/house-request-body-closed', 'a request body open to unknown fields', (d) => { delete schemas(d).WidgetCreateRequest.additionalProperties; }],
  ['spectral/house-request-arrays-bounded', 'a request array without maxItems', (d) => { schemas(d).WidgetCreateRequest.properties.part_ids = { type: 'array', description: 'Parts.', items: { type: 'integer' } }; }],
  ['spectral/house-required-defined', 'a required name that is not a property', (d) => { schemas(d).WidgetCreateRequest.required = ['lable']; }],
  ['spectral/house-required-defined', 'a conditional that requires an undeclared property', (d) => { schemas(d).WidgetCreateRequest.then = { required: ['size'] }; }],
  ['spectral/house-vendor-extensions', 'a misspelt extension', (d) => { widgets(d).post['x-acount-grants'] = ['add_volumes']; }],
  ['spectral/house-vendor-extensions', 'an unknown grant', (d) => { widgets(d).post['x-account-grants'] = ['add_everything']; }],
  ['spectral/house-vendor-extensions', 'x-charge with a value other than true', (d) => { widgets(d).post['x-charge'] = 'yes'; }],
  ['spectral/house-vendor-extensions', 'x-filterable on an operation', (d) => { widgets(d).get['x-filterable'] = true; }],
  ['spectral/house-vendor-extensions', 'x-filter-schemas on an operation', (d) => { widgets(d).get['x-filter-schemas'] = {}; }],
  ['spectral/house-vendor-extensions', 'an unknown extension among the components', (d) => { d.components['x-filter-schema'] = {}; }],
  ['spectral/house-vendor-extensions', 'x-presigned-url on a schema property', (d) => { schemas(d).Widget.properties.label['x-presigned-url'] = { url: '$response.body#/label', method: '$request.body#/color' }; }],
  ['spectral/house-presigned-url', 'an x-presigned-url whose URL field the answer lacks', (d) => { widgets(d).post['x-presigned-url'] = { url: '$response.body#/link', method: '$request.body#/color' }; }],
  ['spectral/house-presigned-url', 'an x-presigned-url whose method field is no enum of HTTP methods', (d) => { widgets(d).post['x-presigned-url'] = { url: '$response.body#/label', method: '$request.body#/label' }; }],
  ['spectral/house-presigned-url', 'an x-presigned-url without a method', (d) => { widgets(d).post['x-presigned-url'] = { url: '$response.body#/label' }; }],
  ['spectral/house-no-nullable-keyword', 'the 3.0 nullable keyword', (d) => { schemas(d).Widget.properties.label.nullable = true; }],
  ['spectral/house-no-date-time-format', 'format date-time', (d) => { schemas(d).Widget.properties.created.format = 'date-time'; }],
  ['spectral/house-portable-schemas', 'a boolean property schema', (d) => { schemas(d).Widget.properties.secret = false; }],
  ['spectral/house-portable-schemas', 'null inside an enum', (d) => { schemas(d).WidgetCreateRequest.properties.color = { type: ['string', 'null'], description: 'The color.', enum: ['blue', null] }; }],
  ['spectral/house-portable-schemas', 'an allOf member made only of a condition', (d) => {
    const body = schemas(d).WidgetCreateRequest;
    schemas(d).WidgetCreateRequest = { description: body.description, allOf: [{ type: 'object', properties: body.properties, required: body.required }, { if: body.if, then: body.then }], unevaluatedProperties: false };
  }],
  ['spectral/house-portable-schemas', 'an allOf member made only of overrides', (d) => {
    const body = schemas(d).WidgetCreateRequest;
    delete body.additionalProperties;
    body.allOf = [{ properties: { color: { description: 'The color, blue unless set.', default: 'blue' } } }];
    body.unevaluatedProperties = false;
  }],
  ['spectral/house-portable-schemas', 'format branches without a type', (d) => { schemas(d).Widget.properties.label = { type: 'string', description: 'An address.', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] }; }],
  ['spectral/house-secrets-guarded', 'a write-only secret that an answer does not guard', (d) => {
    schemas(d).WidgetCreateRequest.properties.secret = { type: 'string', description: 'A secret.', writeOnly: true };
  }],
  ['spectral/house-secrets-guarded', 'a write-only secret nested in the body that an answer does not guard', (d) => {
    schemas(d).WidgetCreateRequest.properties.parts = { type: 'array', description: 'The parts.', items: { type: 'object', description: 'A part.', properties: { key: { type: 'string', description: 'A key.', writeOnly: true } } } };
  }],
  ['spectral/house-property-description', 'a property without description', (d) => { delete schemas(d).Widget.properties.label.description; }],
  ['redocly/rule/operation-summary-capitalized', 'a lower-case summary', (d) => { widgets(d).get.summary = 'list widgets'; }],
  ['redocly/rule/operation-summary-no-period', 'a summary ending in a period', (d) => { widgets(d).get.summary = 'List widgets.'; }],
  ['redocly/rule/operation-summary-short', 'a summary over 60 characters', (d) => { widgets(d).get.summary = 'List widgets of every color and size that the account has ever made'; }],
  ['redocly/rule/operation-id-camel-case', 'a snake_case operationId', (d) => { widgets(d).get.operationId = 'list_widgets'; }],
  ['redocly/rule/property-names-snake-case', 'a camelCase property', (d) => { schemas(d).Widget.properties.createdAt = { type: 'string', description: 'When.' }; }],
  ['redocly/rule/path-parameters-camel-case', 'a snake_case path parameter', (d) => {
    d.paths['/widgets/{widget_id}'] = widget(d); delete d.paths['/widgets/{widgetId}'];
    Object.assign(d.components.parameters.WidgetId, { name: 'widget_id' });
  }],
  ['redocly/rule/query-parameters-snake-case', 'a camelCase query parameter', (d) => { d.components.parameters.PageSize.name = 'pageSize'; }],
  ['redocly/rule/body-schema-is-named', 'an inline response schema', (d) => { widget(d).get.responses[200].content['application/json'].schema = { ...schemas(d).Widget }; }],
  ['redocly/rule/operation-description-long-enough', 'a one-word description', (d) => { widgets(d).get.description = 'Lists.'; }],
];

let dir;
let byFile;
const fileOf = (i) => path.join(dir, `case-${String(i).padStart(2, '0')}.json`);
const baseFile = () => path.join(dir, 'base.json');
// The spec's sources keep each path item in its own file; rules must see path-level parameters
// through the $ref (a bug once made them look only at the unresolved root).
const splitRoot = () => path.join(dir, 'split', 'openapi.json');
const splitPathItem = () => path.join(dir, 'split', 'widget.json');

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'style-rules-'));
  writeFileSync(baseFile(), JSON.stringify(baseDocument(), null, 2));
  cases.forEach(([, , mutate], i) => {
    const doc = baseDocument();
    mutate(doc);
    writeFileSync(fileOf(i), JSON.stringify(doc, null, 2));
  });
  const split = baseDocument();
  const pathItem = split.paths['/widgets/{widgetId}'];
  delete pathItem.get.responses[400];
  pathItem.parameters = [{ name: 'widgetId', in: 'path', description: 'The id of the widget.', required: true, schema: { type: 'integer' } }];
  pathItem.get.responses = JSON.parse(JSON.stringify(pathItem.get.responses).replaceAll('"#/components/', '"openapi.json#/components/'));
  pathItem.get.responses[200].content['application/json'].schema.$ref = 'openapi.json#/components/schemas/Widget';
  delete split.components.parameters.WidgetId;
  split.paths['/widgets/{widgetId}'] = { $ref: 'widget.json' };
  mkdirSync(path.dirname(splitRoot()));
  writeFileSync(splitRoot(), JSON.stringify(split, null, 2));
  writeFileSync(splitPathItem(), JSON.stringify(pathItem, null, 2));
  const problems = await lintFiles([baseFile(), splitRoot(), ...cases.map((_, i) => fileOf(i))]);
  byFile = new Map();
  for (const p of problems) {
    if (!byFile.has(p.file)) byFile.set(p.file, []);
    byFile.get(p.file).push(p);
  }
}, 120_000);

afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

describe('house style guide', () => {
  it('passes the base document with no finding at all', () => {
    const found = (byFile.get(baseFile()) || []).map((p) => `${p.tool}/${p.rule}: ${p.message}`);
    expect(found).toEqual([]);
  });

  it.each(cases.map(([rule, what], i) => [rule, what, i]))('%s flags %s', (rule, what, i) => {
    const found = byFile.get(fileOf(i)) || [];
    const hits = found.filter((p) => `${p.tool}/${p.rule}` === rule);
    expect(hits, `expected ${rule} among: ${found.map((p) => `${p.tool}/${p.rule}`).join(', ') || 'nothing'}`).not.toHaveLength(0);
    // Findings point at a line of the file that holds the problem.
    for (const hit of hits) expect(hit.line).toBeGreaterThan(0);
  });

  it('sees path-level parameters of a path item kept in its own file', () => {
    const hits = [...byFile.values()].flat().filter((p) => p.rule === 'house-error-responses' && p.file === splitPathItem());
    expect(hits.map((p) => p.message).join('\n')).toMatch(/Missing 400 response \(the operation takes parameters\)/);
  });

  it('gives messages that say how to fix the problem', () => {
    const messages = cases.flatMap(([rule], i) => (byFile.get(fileOf(i)) || []).filter((p) => `${p.tool}/${p.rule}` === rule)).map((p) => p.message);
    for (const message of messages) expect(message.length, message).toBeGreaterThan(25);
  });
});
