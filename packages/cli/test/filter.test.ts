// --filter: the X-Filter header. The JSON is checked against the schema the header's
// contentSchema names (the bundle generates one per list) before the client sends it.
import { describe, expect, it } from 'vitest';
import { buildTable } from '../scripts/command-table.mjs';
import { UsageError } from '../src/errors.js';
import { planRequest } from '../src/request.js';
import { loadTable } from '../src/table.js';

const io = { stdout() {}, stderr() {}, readStdin: async () => '', env: {}, interactive: false, prompt: async () => '' };

/** A document of one list operation that declares X-Filter as the bundle does: a string whose JSON has a contentSchema. */
const document = {
  openapi: '3.1.0', info: { title: 't', version: '1.0.0' }, servers: [{ url: 'http://x/v4' }], tags: [{ name: 'Widgets', description: 'Widgets.' }],
  paths: {
    '/widgets': {
      get: {
        operationId: 'listWidgets', tags: ['Widgets'], summary: 'List widgets',
        parameters: [{ name: 'X-Filter', in: 'header', schema: { type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/x-filter-schemas/ListWidgetsFilter' } } }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }, page: { type: 'integer' } } } } } } },
      },
    },
  },
  components: { 'x-filter-schemas': { ListWidgetsFilter: { type: 'object', properties: { size: { type: 'integer' } }, additionalProperties: false } } },
};

describe('--filter', () => {
  it('is offered where the operation declares X-Filter, with the pointer of its schema', () => {
    const [widgets] = buildTable(document).commands;
    expect(widgets).toMatchObject({ words: ['widgets', 'list'], filter: true, filterSchemaPointer: '#/components/x-filter-schemas/ListWidgetsFilter' });
  });

  it('is checked against the bundle\'s generated schema of the list (the header\'s contentSchema)', async () => {
    const volumes = loadTable().commands.find((c) => c.operationId === 'listVolumes')!;
    expect(volumes.filterSchemaPointer).toBe('#/components/x-filter-schemas/ListVolumesFilter');
    const refused = await planRequest(volumes, { positionals: [], flags: new Map(), filter: '{"size": 20}' }, io).catch((error: unknown) => error);
    expect((refused as UsageError).lines, String(refused)).toEqual(['--filter size: is not a field this request accepts']);
  });

  it('is checked against that schema before sending, the filter\'s fields named', async () => {
    const volumes = loadTable().commands.find((c) => c.operationId === 'listVolumes')!;
    // A schema of the bundle that stands in for the filter's: `size` is an integer there.
    const spec = { ...volumes, filterSchemaPointer: '#/components/schemas/VolumeCreateRequest' };
    const refused = await planRequest(spec, { positionals: [], flags: new Map(), filter: '{"label": "x", "size": "big"}' }, io).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as UsageError).lines, String(refused)).toEqual(['--filter region: is required', '--filter size: must be integer or null']);
    const planned = await planRequest(spec, { positionals: [], flags: new Map(), filter: '{"label": "x", "size": 20, "region": "us-east"}' }, io);
    // Parsed: the client encodes it into the header with the spec's encoder.
    expect(planned.filter).toEqual({ label: 'x', size: 20, region: 'us-east' });
  });

  it('must be a JSON object', async () => {
    const volumes = loadTable().commands.find((c) => c.operationId === 'listVolumes')!;
    const refused = await planRequest(volumes, { positionals: [], flags: new Map(), filter: '[1]' }, io).catch((error: unknown) => error);
    expect((refused as UsageError).lines[0]).toMatch(/^--filter: must be a JSON object/);
  });
});
