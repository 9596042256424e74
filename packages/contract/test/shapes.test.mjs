// The kit on shapes the first areas of the spec lack (multipart bodies, text answers, string ids,
// a oneOf body, a required query parameter without an example), against the well-behaved
// fixture and against Prism itself, so it keeps working as the other areas land.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '@cloudapi/mock';
import { deriveMockDocument } from '@cloudapi/mock/derive';
import { orderedOperations, runContract } from '../src/index.mjs';
import { startFixture } from './fixtures/server.mjs';
import { shapesDocument } from './fixtures/shapes.mjs';

const failures = (result) => result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${op.operationId} › ${r.label} › ${c.name}: ${c.reason}`)));
const requestsOf = (result, id) => result.operations.find((op) => op.operationId === id).requests;
const dir = mkdtempSync(path.join(tmpdir(), 'contract-shapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('other shapes of operations', () => {
  it('orders destructive actions last', () => {
    expect(orderedOperations(shapesDocument).map((op) => op.operation.operationId).at(-1)).toBe('cancelShapes');
  });

  it('passes against a well-behaved implementation, with multipart and oneOf variants refused by field', async () => {
    const fixture = await startFixture({ document: shapesDocument });
    try {
      const result = await runContract({ baseUrl: fixture.baseUrl, token: 't', document: shapesDocument });
      expect(failures(result)).toEqual([]);
      expect(result.coverage).toMatchObject({ exercised: 4, successValidated: 4, total: 4 });
      const upload = requestsOf(result, 'createTicketAttachment');
      expect(upload.filter((r) => r.kind === 'negative').map((r) => r.label)).toEqual(expect.arrayContaining([expect.stringMatching(/^invalid: file: left out/)]));
      const shapes = requestsOf(result, 'createShape');
      expect(shapes.filter((r) => r.kind === 'positive')).toHaveLength(2);
      expect(shapes.some((r) => /\[conditional\]/.test(r.label))).toBe(true);
      expect(shapes[0].url).toMatch(/\?dry_run=true$/);
      expect(requestsOf(result, 'getDomainZoneFile')[0].checks.find((c) => c.name === 'body matches schema').outcome).toBe('pass');
    } finally {
      await fixture.stop();
    }
  });

  it('fails only the operation whose schema the kit cannot handle, and goes on', async () => {
    const broken = structuredClone(shapesDocument);
    broken.paths['/domains/{domainId}/zone-file'].get.parameters[0].schema.pattern = '(';
    const fixture = await startFixture({ document: shapesDocument });
    try {
      const result = await runContract({ baseUrl: fixture.baseUrl, token: 't', document: broken });
      expect(failures(result)).toEqual([expect.stringMatching(/^getDomainZoneFile › kit error › kit error: the kit failed on this operation: .*pattern/s)]);
      expect(result.coverage.successValidated).toBe(3);
    } finally {
      await fixture.stop();
    }
  });

  it('passes against Prism serving the same document', async () => {
    const file = path.join(dir, 'shapes.mock.json');
    writeFileSync(file, JSON.stringify(deriveMockDocument(shapesDocument)));
    const mock = await startMock({ port: 0, document: file });
    try {
      const result = await runContract({ baseUrl: `${mock.url}/v4`, document: shapesDocument });
      expect(result.target).toBe('mock');
      expect(failures(result)).toEqual([]);
      expect(result.coverage.successValidated).toBe(4);
    } finally {
      await mock.stop();
    }
  });
});
