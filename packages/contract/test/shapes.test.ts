// The kit on shapes the spec's areas may bring (multipart bodies, text answers, string ids, a oneOf
// body, a required query parameter without an example, an account-wide destructive action),
// against the fake implementation and against Prism serving the same small document.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '@cloudapi/mock';
import { deriveMockDocument } from '@cloudapi/mock/derive';
import { runContract, type ContractResult } from '../src/index.js';
import { startFake } from './fixtures/fake.js';
import { shapesDocument } from './fixtures/shapes.js';

const full = [{ token: 'shapes-token', scopes: '*', grants: 'all' as const, restricted: false }];
const failures = (result: ContractResult) => result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${op.operationId} › ${r.label} › ${c.name}: ${c.reason}`)));
const requestsOf = (result: ContractResult, id: string) => result.operations.find((op) => op.operationId === id)!.requests;
const dir = mkdtempSync(path.join(tmpdir(), 'contract-shapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('other shapes of operations', () => {
  it('passes against the fake, with multipart and oneOf variants refused by field; the destructive action waits for --allow-destructive', async () => {
    const fake = await startFake({ document: shapesDocument, tokens: full });
    try {
      const result = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, examples: 3 });
      expect(failures(result)).toEqual([]);
      expect(result.operations.find((op) => op.operationId === 'cancelShapes')!.unproven).toMatch(/--allow-destructive/);
      expect(result.exitCode).toBe(2);
      const upload = requestsOf(result, 'createTicketAttachment');
      expect(upload.filter((r) => r.kind === 'negative').map((r) => r.label)).toEqual(expect.arrayContaining([expect.stringMatching(/^invalid: file: left out/)]));
      const shapes = requestsOf(result, 'createShape');
      expect(shapes.filter((r) => r.kind === 'positive')).toHaveLength(2);
      expect(shapes.some((r) => /\[conditional\]/.test(r.label))).toBe(true);
      expect(shapes[0]!.url).toMatch(/\?dry_run=true$/);
      expect(requestsOf(result, 'getDomainZoneFile')[0]!.checks.find((c) => c.name === 'body matches schema')!.outcome).toBe('pass');

      const allowed = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: shapesDocument, examples: 0, allowDestructive: true });
      expect(failures(allowed)).toEqual([]);
      expect(allowed.coverage).toMatchObject({ selected: 5, successValidated: 5 });
      expect(allowed.exitCode).toBe(0);
    } finally {
      await fake.stop();
    }
  });

  it('fails only the operation whose schema the kit cannot handle, and goes on', async () => {
    const broken = structuredClone(shapesDocument);
    broken.paths['/domains/{domainId}/zone-file'].get.parameters[0].schema.pattern = '(';
    const fake = await startFake({ document: shapesDocument, tokens: full });
    try {
      const result = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: broken, examples: 0, allowDestructive: true });
      expect(failures(result)).toEqual([expect.stringMatching(/^getDomainZoneFile › kit error › kit error: the kit failed on this operation: .*pattern/s)]);
      expect(result.coverage.successValidated).toBe(4);
      expect(result.exitCode).toBe(1);
    } finally {
      await fake.stop();
    }
  });

  it('passes against Prism serving the same document', async () => {
    const file = path.join(dir, 'shapes.mock.json');
    writeFileSync(file, JSON.stringify(deriveMockDocument(shapesDocument)));
    const mock = await startMock({ port: 0, document: file });
    try {
      const result = await runContract({ baseUrl: `${mock.url}/v4`, document: shapesDocument, examples: 3 });
      expect(result.target).toBe('mock');
      expect(failures(result)).toEqual([]);
      expect(result.coverage.successValidated).toBe(5);
      expect(result.exitCode).toBe(0);
    } finally {
      await mock.stop();
    }
  });
});
