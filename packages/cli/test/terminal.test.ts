// What reaches the terminal. A hostile server (a loopback listener answering values full of
// control characters, and echoing what it is sent) cannot drive the terminal through the table,
// the `--json` output or the error lines; `--debug` hides the token and the write-only fields the
// bundle marks; and `cloudapi configure` reads the token with the terminal's echo off, checked
// through a real pseudo-terminal (util-linux's `script`).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../src/debug.js';
import { loadTable } from '../src/table.js';
import { cloudapi, json, tempDir } from './support/cli.js';

const TOKEN = 'hostile-test-token-5f2c9a';
// Everything a terminal obeys: ESC sequences (clear the screen, retitle the window, a hyperlink),
// an 8-bit CSI, DEL, a carriage return and a backspace that overwrite, a bidi override.
const HOSTILE = ['\u001b[2J', '\u001b]0;pwned\u0007', '\u001b]8;;http://evil.example\u0007', '\u009b31m', '\u007f', 'a\rb', 'c\bd', '\u202egnp.exe'];
const label = `vol${HOSTILE.join('')}`;
const volume = { id: 7, label, status: 'active', size: 20, region: `us-east${HOSTILE[3]}`, compute_id: null, compute_label: null, filesystem_path: '/dev/x', created: '2024-01-01T00:00:00', updated: '2024-01-01T00:00:00', tags: [HOSTILE[0]] };
// Anything a terminal would act on, once printed: C0 but tab and line feed, DEL, C1, bidi controls.
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let server: http.Server;
let env: Record<string, string>;
const seen: Array<{ method: string; url: string; body: string; authorization?: string }> = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: request.method!, url: request.url!, body, authorization: request.headers.authorization });
      const send = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (request.url === '/v4/volumes' && request.method === 'GET') return send(200, { data: [volume], page: 1, pages: 1, results: 1 });
      if (request.url === '/v4/volumes/7') return send(200, volume);
      if (request.url === '/v4/volumes') return send(400, { errors: [{ field: `label${HOSTILE[0]}`, reason: `refused${HOSTILE[2]}here` }] });
      // Anything else: the request echoed back, its token and body included.
      return send(200, { id: 1, label: 'echo', you_sent: { authorization: request.headers.authorization, body: body ? JSON.parse(body) : null } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const home = tempDir('terminal');
  env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), CLOUDAPI_TOKEN: TOKEN, CLOUDAPI_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4` };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('values from the server', () => {
  it('are printed in the table with every control character escaped, the columns still aligned', async () => {
    for (const args of [['volumes', 'list'], ['volumes', 'view', '7']]) {
      const outcome = await cloudapi(args, { env });
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.stdout, args.join(' ')).not.toMatch(RAW_CONTROL);
      expect(outcome.stdout).toContain('vol\\u001b[2J\\u001b]0;pwned\\u0007');
      expect(outcome.stdout).toContain('\\u009b31m\\u007f');
      // A line break or carriage return in a cell is folded into a space: one line per row.
      expect(outcome.stdout).toContain('\\u007fa bc\\u0008d');
      expect(outcome.stdout).toContain('\\u202egnp.exe');
      const [header, row] = outcome.stdout.split('\n');
      expect(row!.indexOf('active')).toBe(header!.indexOf('STATUS'));
    }
  });

  it('stay JSON with --json: escaped as \\uXXXX, and read back as the server sent them', async () => {
    for (const args of [['volumes', 'list', '--json'], ['volumes', 'view', '7', '--json']]) {
      const outcome = await cloudapi(args, { env });
      expect(outcome.stdout, args.join(' ')).not.toMatch(RAW_CONTROL);
      const parsed = json(outcome);
      expect(Array.isArray(parsed) ? parsed[0] : parsed).toEqual(volume);
    }
  });

  it('in an error\'s field and reason are escaped on standard error', async () => {
    const outcome = await cloudapi(['volumes', 'create', '--label', 'x', '--region', 'us-east'], { env });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).not.toMatch(RAW_CONTROL);
    expect(outcome.stderr).toBe('label\\u001b[2J: refused\\u001b]8;;http://evil.example\\u0007here\n');
  });
});

describe('--debug', () => {
  it('hides the token and every write-only field of the bundle, in what is sent and in what comes back', async () => {
    const writeOnly = loadTable().writeOnly;
    expect(writeOnly).toContain('root_pass');
    const secret = 'Sup3r-Secret-Passw0rd!';
    const outcome = await cloudapi(['compute', 'instances', 'create', '--region', 'us-east', '--type', 'g6-standard-2', '--image', 'compute/debian12', '--root-pass', secret, '--label', 'dbg', '--debug'], { env });
    expect(outcome.code, outcome.stderr).toBe(0);
    // The server did get both, and echoed them back.
    const sent = seen.find((r) => r.method === 'POST' && r.url === '/v4/compute/instances')!;
    expect(JSON.parse(sent.body).root_pass).toBe(secret);
    expect(sent.authorization).toBe(`Bearer ${TOKEN}`);
    expect(outcome.stderr).not.toContain(secret);
    expect(outcome.stderr).not.toContain(TOKEN);
    expect(outcome.stderr).toContain(`> authorization: Bearer ${REDACTED}`);
    expect(outcome.stderr).toMatch(new RegExp(`^> \\{.*"root_pass":"\\*{4}".*\\}$`, 'm'));
    expect(outcome.stderr).toMatch(new RegExp(`^< \\{.*"authorization":"Bearer \\*{4}".*"root_pass":"\\*{4}".*\\}$`, 'm'));
    // What was not secret is shown as it was.
    expect(outcome.stderr).toContain('"label":"dbg"');
  });
});

/** util-linux's `script`, which runs a command on a pseudo-terminal of its own. */
function scriptBinary(): string {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return 'script';
  } catch {
    throw new Error('`script` (util-linux) is needed to run configure on a real terminal: sudo apt-get install -y bsdutils');
  }
}

describe('cloudapi configure at a real terminal', () => {
  it('reads the token with the echo off (the base URL, typed after it, is echoed), and writes it 0600', async () => {
    const script = scriptBinary();
    const home = tempDir('pty');
    const typedToken = 'typed-at-the-terminal-8d41';
    const typedUrl = 'http://127.0.0.1:9/v4';
    const bin = path.resolve('bin/cloudapi.mjs');
    // --echo always: the terminal echoes what is typed unless the program turns it off.
    const child = spawn(script, ['-q', '-e', '--echo', 'always', '-c', `'${process.execPath}' '${bin}' configure`, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg'), TERM: 'dumb' },
    });
    let screen = '';
    const waitFor = (text: string) => new Promise<void>((resolve, reject) => {
      const check = () => { if (screen.includes(text)) { child.stdout.off('data', check); resolve(); } };
      child.stdout.on('data', check);
      child.once('exit', () => reject(new Error(`the terminal ended before "${text}": ${JSON.stringify(screen)}`)));
      check();
    });
    child.stdout.on('data', (chunk: Buffer) => { screen += chunk.toString('utf8'); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await waitFor('Token (not shown as you type): ');
    child.stdin.write(`${typedToken}\r`);
    await waitFor('Base URL [');
    child.stdin.write(`${typedUrl}\r`);
    expect(await exited, screen).toBe(0);
    expect(screen).toContain(typedUrl);
    expect(screen).not.toContain(typedToken);
    expect(screen).not.toContain(typedToken.slice(0, 8));
    const file = path.join(home, 'xdg', 'cloudapi', 'config.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ token: typedToken, base_url: typedUrl });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
