// Usage errors (exit 2, nothing sent), the API's refusals (exit 1, `field: reason` lines), bodies
// from standard input, --debug with the token masked: never a stack trace for a user's mistake.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudapi, json, startTestServer, tempDir, type TestServer } from './support/cli.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer('errors'); });
afterAll(() => t?.close());

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('usage errors: exit 2, before anything is sent', () => {
  it('a missing required field, a value out of range and one outside the enum, in the spec\'s terms', async () => {
    const before = json(await t.cli('volumes', 'list', '--all', '--json')).length;
    const outcome = await t.cli('volumes', 'create', '--label', '', '--size', '0');
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('--region: is required');
    expect(outcome.stderr).toContain('--label: must be at least 1 character long');
    expect(outcome.stderr).toContain('--size: must be at least 1');
    const enumOutcome = await t.cli('domains', 'create', '--domain', 'x.example', '--type', 'primary', '--soa-email', 'a@x.example');
    expect(enumOutcome.code).toBe(2);
    expect(enumOutcome.stderr).toContain('--type: must be one of "master", "slave"');
    noStack(outcome.stderr + enumOutcome.stderr);
    expect(json(await t.cli('volumes', 'list', '--all', '--json'))).toHaveLength(before);
  });

  it('a field of --data is named by its path in the JSON', async () => {
    const outcome = await cloudapi(['volumes', 'create', '--data', '-'], { env: t.env, stdin: '{"label": "x", "size": "big", "region": "us-east"}' });
    expect(outcome).toMatchObject({ code: 2 });
    expect(outcome.stderr).toContain('error: size: must be integer');
  });

  it('bad JSON in --data or --filter, a file that is not there, an unknown command or flag, a missing id', async () => {
    const cases = [
      [['volumes', 'create', '--data', '{label'], /--data: not valid JSON/],
      [['volumes', 'create', '--data', '@/nowhere/body.json'], /--data @\/nowhere\/body.json: cannot read the file \(ENOENT\)/],
      [['volumes', 'list', '--filter', 'region=us-east'], /--filter: must be a JSON object/],
      [['volumes', 'frobnicate'], /unknown command 'frobnicate'/],
      [['volumes', 'list', '--colour'], /unknown option '--colour'/],
      [['volumes', 'view'], /missing required argument 'volume-id'/],
      [['volumes', 'view', 'abc'], /<volume-id>: must be integer/],
      [['volumes'], /Usage: cloudapi volumes/],
      [[], /Usage: cloudapi/],
    ] as const;
    for (const [args, message] of cases) {
      const outcome = await t.cli(...args);
      expect(outcome.code, `${args.join(' ')}: ${outcome.stderr}`).toBe(2);
      expect(outcome.stderr, args.join(' ')).toMatch(message);
      noStack(outcome.stderr);
    }
  });
});

describe('the API refusing: exit 1, its ErrorResponse as field: reason lines', () => {
  it('a reference that does not exist (the server\'s own rule)', async () => {
    const outcome = await t.cli('images', 'create', '--disk-id', '25674', '--label', 'ghost');
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe('disk_id: Disk 25674 does not exist\n');
  });

  it('a resource that does not exist, and a token the server does not know', async () => {
    const missing = await t.cli('volumes', 'view', '999999');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^Volume 999999 does not exist\n$/);
    const unknown = await cloudapi(['volumes', 'list'], { env: { ...t.env, CLOUDAPI_TOKEN: 'not-a-token' } });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/token/i);
    noStack(unknown.stderr);
  });

  it('a server that cannot be reached is said in one line', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = net.createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as net.AddressInfo).port)));
    await new Promise((resolve) => probe.close(resolve));
    const outcome = await cloudapi(['regions', 'list'], { env: { ...t.env, CLOUDAPI_BASE_URL: `http://127.0.0.1:${port}/v4` } });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(`cannot reach http://127.0.0.1:${port}/v4: ECONNREFUSED\n`);
  });
});

describe('--debug', () => {
  it('shows the request and the answer, the token masked', async () => {
    const outcome = await t.cli('volumes', 'create', '--label', 'dbg', '--region', 'us-east', '--debug');
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toMatch(/^> POST http:\/\/127\.0\.0\.1:\d+\/v4\/volumes$/m);
    expect(outcome.stderr).toContain('> authorization: Bearer ****');
    expect(outcome.stderr).toContain('> {"label":"dbg","region":"us-east"}');
    expect(outcome.stderr).toMatch(/^< 200 OK/m);
    expect(outcome.stderr).not.toContain(t.env.CLOUDAPI_TOKEN);
  });
});

describe('bodies', () => {
  it('--data - reads standard input; flags add to a --data body', async () => {
    const made = json(await cloudapi(['volumes', 'create', '--data', '-', '--size', '25', '--json'], { env: t.env, stdin: '{"label": "from-stdin", "region": "us-east"}' }));
    expect(made).toMatchObject({ label: 'from-stdin', region: 'us-east', size: 25 });
  });

  it('booleans as --flag / --no-flag, arrays as repeated flags, null for a nullable field', async () => {
    const bucket = json(await t.cli('object-storage', 'buckets', 'create', '--label', 'bool-bucket', '--cluster', 'us-east-1', '--no-cors-enabled', '--json'));
    expect(bucket.label).toBe('bool-bucket');
    const volume = json(await t.cli('volumes', 'create', '--label', 'arr', '--region', 'us-east', '--tags', 'one', '--tags', 'two', '--json'));
    expect(volume.tags).toEqual(['one', 'two']);
    const instance = json(await t.cli('compute', 'instances', 'create', '--region', 'us-east', '--type', 'g6-standard-2', '--label', 'null-group', '--json'));
    const updated = json(await t.cli('compute', 'instances', 'update', String(instance.id), '--group', 'null', '--json'));
    expect(updated.group === null || updated.group === '').toBe(true);
  });

  it('a file field is sent as a multipart part from the file named', async () => {
    const ticket = json(await t.cli('support', 'tickets', 'open', '--summary', 'Attach a log', '--description', 'The log is attached.', '--json'));
    const file = path.join(tempDir('attach'), 'console.txt');
    writeFileSync(file, 'boot log\n');
    const outcome = await t.cli('support', 'ticket-attachment', 'upload', String(ticket.id), '--file', file);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(json(await t.cli('support', 'tickets', 'view', String(ticket.id), '--json')).attachments).toContain('console.txt');
  });
});
