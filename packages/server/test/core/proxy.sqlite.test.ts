// The mock's validating proxy (`npm run mock -- --proxy URL`, @cloudapi/mock) in front of this
// server, as a team checking its own implementation would use it: a whole contract-kit run passes
// through it with zero violations, and an answer tampered with on its way is reported, naming the
// operation and the field.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, runContract } from '@cloudapi/contract';
import { startMock } from '@cloudapi/mock';
import { failures, tags, wholeRun } from '../harness/area-contracts.js';
import { startTestServer, TOKENS } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

type Mock = Awaited<ReturnType<typeof startMock>>;
let t: TestServer;
let hop: Hop;
/** One validating proxy for both tests (a Prism start costs about a second of CPU), in front of the hop. */
let proxy: Mock;
const logged: string[] = [];
const started: Array<{ stop(): Promise<unknown> | unknown }> = [];
beforeAll(async () => {
  t = await startTestServer({ name: 'proxy' });
  hop = await hopTo(t.baseUrl);
  proxy = await startMock({ port: 0, proxy: hop.baseUrl, log: (line: string) => logged.push(line) });
  started.push(proxy);
});
afterAll(async () => {
  for (const s of started.reverse()) await s.stop();
  await t?.close();
});

interface Hop {
  baseUrl: string;
  /** From now on, remove `field` from the JSON answers of GET requests matching `path`. */
  tamper(path: RegExp, field: string): void;
}

/**
 * A hop between the proxy and the server that passes every exchange on as it came until told to
 * tamper: then it removes a field from the answers to one kind of request, as a server that broke
 * its contract on that one answer would.
 */
async function hopTo(target: string): Promise<Hop> {
  const origin = new URL(target);
  let rule: { path: RegExp; field: string } | null = null;
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const tampered = rule && req.method === 'GET' && rule.path.test(req.url ?? '') && answer.statusCode === 200 ? rule.field : null;
      if (!tampered) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        delete json[tampered];
        const body = Buffer.from(JSON.stringify(json));
        const headers = { ...answer.headers, 'content-length': String(body.length) };
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, headers).end(body);
      });
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  started.push({ stop: () => new Promise((resolve) => server.close(resolve)) });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${origin.pathname}`,
    tamper: (path, field) => { rule = { path, field }; },
  };
}

describe('the mock as a validating proxy in front of the server', () => {
  it(`passes a whole contract-kit run over ${tags.join(', ')} with zero violations`, async () => {
    const result = await runContract(wholeRun(proxy));
    const report = formatReport(result, { verbose: true });
    expect(result.target, report).toBe('implementation');
    expect(failures(result), report).toEqual([]);
    const stats = proxy.stats();
    // Every request of the run went through the proxy and was checked there.
    expect(stats.exchanges).toBeGreaterThan(result.operations.length);
    expect(stats.violations, logged.join('\n')).toBe(0);
    expect(proxy.violations()).toEqual([]);
  });

  it('reports an answer tampered with on its way, naming the operation and the field', async () => {
    hop.tamper(/\/volumes\/\d+$/, 'region');
    const before = proxy.stats();
    const headers = { authorization: `Bearer ${TOKENS.full.token}`, 'content-type': 'application/json' };
    const created = await fetch(`${proxy.baseUrl}/volumes`, { method: 'POST', headers, body: JSON.stringify({ label: 'proxied-volume', region: 'us-east', size: 20 }) });
    expect(created.status).toBe(200);
    const { id } = await created.json() as { id: number };
    expect(proxy.stats().violations).toBe(before.violations);

    const read = await fetch(`${proxy.baseUrl}/volumes/${id}`, { headers });
    expect(read.status).toBe(200);
    expect(await read.json()).not.toHaveProperty('region');
    expect(proxy.stats().responseViolations).toBe(before.responseViolations + 1);
    expect(proxy.violations().at(-1)).toMatch(/getVolume .* response body\.region: This field is required\./);
  });
});
