// The command line: exit codes, the table, coverage, the JUnit report, the order of operations.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '@cloudapi/spec/walk';
import { loadDocument, orderedOperations, securityOf } from '../src/index.mjs';
import { startFixture } from './fixtures/server.mjs';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/cloudapi-contract.mjs');
const document = loadDocument();
const operationCount = [...operations(document)].length;
const dir = mkdtempSync(path.join(tmpdir(), 'contract-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

async function withFixture(options, work) {
  const fixture = await startFixture({ document, ...options });
  try { return await work(fixture); } finally { await fixture.stop(); }
}

describe('cloudapi-contract', () => {
  it('exits 0 on a well-behaved implementation, prints a table and coverage, writes JUnit XML', async () => {
    const junit = path.join(dir, 'good.xml');
    const { code, stdout } = await withFixture({}, (f) => cli(['--base-url', f.baseUrl, '--token', 't', '--junit', junit]));
    expect(code).toBe(0);
    expect(stdout).toMatch(/target: implementation \(/);
    expect(stdout).toMatch(/^createVolume\s+POST \/volumes\s+\d+\s+\d+\s+0\s+0\s+0\s+✔/m);
    expect(stdout).toContain(`coverage: ${operationCount}/${operationCount} operations exercised (100%)`);
    expect(stdout).toMatch(/✔ the target keeps the contract/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="cloudapi-contract" tests="\d+" failures="0"/);
    expect(xml.match(/<testsuite /g)).toHaveLength(operationCount);
    expect(xml).not.toContain('<failure');
  });

  it('exits 1 on a violation and names operation, request, check and reason in the output and the JUnit XML', async () => {
    const junit = path.join(dir, 'bad.xml');
    const breakage = { answer: (op, a) => { if (op.operation.operationId === 'getRegion' && a.status === 200) a.body = { ...a.body, status: 'closed' }; } };
    const { code, stdout } = await withFixture({ breakage }, (f) => cli(['--base-url', f.baseUrl, '--token', 't', '--junit', junit, '--only', 'Regions']));
    expect(code).toBe(1);
    expect(stdout).toMatch(/✖ getRegion \(GET \/regions\/\{regionId\}\) › valid request › body matches schema: \/status must be equal to one of the allowed values/);
    expect(stdout).toMatch(/coverage: 2\/\d+ operations exercised .*\(2 selected\)/);
    expect(stdout).toMatch(/✖ the target breaks the contract: 1 failed check$/m);
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(/<testcase classname="cloudapi-contract.getRegion" name="valid request › body matches schema" time="[\d.]+"><failure message="\/status must be equal/);
  });

  it('exits 2 when the target does not answer or the arguments are wrong', async () => {
    const unreachable = await cli(['--base-url', 'http://127.0.0.1:9/v4', '--timeout', '2000']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/could not be made: no answer from http:\/\/127.0.0.1:9\/v4/);
    const missing = await cli([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--base-url is required/);
    const badTarget = await cli(['--base-url', 'http://127.0.0.1:9/v4', '--target', 'prod']);
    expect(badTarget.code).toBe(2);
  });
});

describe('the order of operations', () => {
  const order = orderedOperations(document).map((op) => `${op.method.toUpperCase()} ${op.path}`);
  const before = (a, b) => expect(order.indexOf(a), `${a} before ${b}`).toBeLessThan(order.indexOf(b));

  it('creates before reads, reads before changes and actions, deletes last with children first', () => {
    expect(order).toHaveLength(operationCount);
    before('POST /volumes', 'GET /volumes');
    before('GET /volumes', 'GET /volumes/{volumeId}');
    before('GET /volumes/{volumeId}', 'PUT /volumes/{volumeId}');
    before('PUT /volumes/{volumeId}', 'POST /volumes/{volumeId}/attach');
    before('POST /volumes/{volumeId}/resize', 'DELETE /volumes/{volumeId}');
    before('GET /tags/{label}', 'DELETE /tags/{label}');
    // After the first destructive operation only destructive ones follow (deletes and POSTs such
    // as cancel), and a child path is removed before its parent.
    const destructive = new Set(orderedOperations(document).filter((op) => op.method === 'delete' || /^(cancel|delete|remove|revoke)/.test(op.operation.operationId)).map((op) => `${op.method.toUpperCase()} ${op.path}`));
    const firstDelete = order.findIndex((o) => o.startsWith('DELETE'));
    expect(order.slice(firstDelete).filter((o) => !destructive.has(o))).toEqual([]);
    before('DELETE /object-storage/buckets/{clusterId}/{bucket}/ssl', 'DELETE /object-storage/buckets/{clusterId}/{bucket}');
    before('DELETE /domains/{domainId}/records/{recordId}', 'DELETE /domains/{domainId}');
  });

  it('classifies security as public, optional or secured', () => {
    const byId = Object.fromEntries([...operations(document)].map((op) => [op.operation.operationId, securityOf(document, op.operation)]));
    expect(byId).toMatchObject({ listRegions: 'public', listImages: 'optional', createVolume: 'secured' });
  });
});
