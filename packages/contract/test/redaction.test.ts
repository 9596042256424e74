// Tokens never leave the kit: a target that echoes the Authorization header it was sent into
// every answer (whole, and where the kit's excerpts cut it short) gets a run whose printed output
// and every report file carry the echoes with the tokens' names ($TOKEN, $TOKEN_1…) and no
// token; and the tokens file --make-tokens writes is readable by its owner only.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractResult } from '../src/index.js';
import { tokenNames, tokenRedactor } from '../src/run/redaction.js';
import { readTokensFile } from '../src/model/tokens.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(here, '../bin/cloudapi-contract.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'contract-redaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Every 8-character piece of a token: what must not appear anywhere, whole or cut. */
const pieces = (token: string) => Array.from({ length: token.length - 7 }, (_, i) => token.slice(i, i + 8));
const secret = () => randomBytes(20).toString('hex');

describe('the redaction of tokens', () => {
  it('replaces a token as sent, inside a JSON string, percent-encoded and cut short before an excerpt\'s …; other text stays', () => {
    const odd = 'tok/"en+=';
    const redact = tokenRedactor(tokenNames('main-token-1234', [{ token: 'main-token-1234', scopes: '*', grants: 'all' }, { token: odd, scopes: '*', grants: 'all' }]));
    expect(redact('Bearer main-token-1234 and again main-token-1234')).toBe('Bearer $TOKEN and again $TOKEN');
    expect(redact(`{"auth":${JSON.stringify(`Bearer ${odd}`)}}`)).toBe('{"auth":"Bearer $TOKEN_1"}');
    expect(redact(`?t=${encodeURIComponent(odd)}`)).toBe('?t=$TOKEN_1');
    expect(redact('… Bearer main-tok…')).toBe('… Bearer $TOKEN…');
    // Too little of it left to be worth a name, or not before a cut: left as it is.
    expect(redact('Bearer mai… and main-tok')).toBe('Bearer mai… and main-tok');
    expect(tokenRedactor([])('main-token-1234')).toBe('main-token-1234');
  });
});

describe('a target that echoes the Authorization header', () => {
  const main = secret();
  const tokensFile = path.join(dir, 'made-tokens.json');
  // The tokens --make-tokens makes: `contract-<what>-<12 random characters>`; their random part is the secret.
  let known: string[] = [];
  const seen = new Set<string>();
  let target: http.Server;
  let baseUrl: string;
  let requests = 0;

  beforeAll(async () => {
    expect((await cli(['--make-tokens', tokensFile])).code).toBe(0);
    known = [main, ...readTokensFile(tokensFile).map((t) => t.token)];
    // Every answer a 400 ErrorResponse whose reason quotes the Authorization header: whole near
    // the start, or so that the kit's 120- and 160-character excerpts cut it after 8 of its characters.
    // (A 400 naming a field: refused as invalid, not for the resource's state, so never retried.)
    const prefix = '{"errors":[{"field":"label","reason":"';
    target = http.createServer((request, response) => {
      const auth = request.headers.authorization ?? '';
      for (const token of known) if (auth.includes(token)) seen.add(token);
      const layout = requests++ % 3;
      const at = [0, 120 - 15, 160 - 15][layout]!;
      const reason = `${'x'.repeat(Math.max(0, at - prefix.length))}you sent ${auth}`;
      const body = `${prefix}${reason}"}]}`;
      response.writeHead(400, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/v4`;
  });
  afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

  it('gets a run whose output and every report quote the echoes with the tokens\' names, never a token', async () => {
    const out = path.join(dir, 'echo');
    const reports = { junit: `${out}/junit.xml`, json: `${out}/report.json`, html: `${out}/index.html` };
    const run = await cli(['--base-url', baseUrl, '--target', 'implementation', '--token', main, '--tokens', tokensFile, '--only', 'Volumes', '--examples', '0', '--timeout', '5000', '--verbose',
      '--junit', reports.junit, '--json', reports.json, '--html', reports.html]);
    expect(run.code, run.stderr).toBe(1);
    expect(seen.has(main), 'the target saw the main token').toBe(true);
    expect(seen.size, 'the target saw tokens of the file too').toBeGreaterThan(2);

    const texts: Record<string, string> = { stdout: run.stdout, stderr: run.stderr };
    for (const [name, file] of Object.entries(reports)) texts[name] = readFileSync(file, 'utf8');
    for (const [name, text] of Object.entries(texts)) {
      for (const token of known) {
        const leaked = pieces(token === main ? token : token.slice(-12)).find((piece) => text.includes(piece));
        expect(leaked, `${name} holds a piece of a token`).toBeUndefined();
      }
    }
    // The echoes did reach the reports: whole, and cut short by an excerpt.
    const reasons = (JSON.parse(texts.json!) as ContractResult).operations.flatMap((op) => op.requests.flatMap((r) => r.checks.map((c) => c.reason))).join('\n');
    expect(reasons).toContain('you sent Bearer $TOKEN"');
    expect(reasons).toMatch(/you sent Bearer \$TOKEN…/);
    expect(reasons).toMatch(/you sent Bearer \$TOKEN_\d+"/);
    expect(texts.junit).toContain('you sent Bearer $TOKEN');
    expect(texts.html).toContain('you sent Bearer $TOKEN');
    expect(texts.stdout).toContain('you sent Bearer $TOKEN');
  });
});

describe('--make-tokens', () => {
  const modeOf = (file: string) => statSync(file).mode & 0o777;

  it('writes the file 0600 in a folder it makes 0700, replaces a 0644 file with a 0600 one, and prints no token', async () => {
    const fresh = path.join(dir, 'made', 'deeper', 'tokens.json');
    const made = await cli(['--make-tokens', fresh]);
    expect(made.code, made.stderr).toBe(0);
    expect(modeOf(fresh)).toBe(0o600);
    expect(modeOf(path.dirname(fresh))).toBe(0o700);
    expect(modeOf(path.join(dir, 'made'))).toBe(0o700);
    const tokens = readTokensFile(fresh).map((t) => t.token);
    expect(tokens.length).toBeGreaterThan(3);
    for (const token of tokens) expect(made.stdout + made.stderr).not.toContain(token);

    const open = path.join(dir, 'open-tokens.json');
    writeFileSync(open, '[]');
    chmodSync(open, 0o644);
    expect((await cli(['--make-tokens', open])).code).toBe(0);
    expect(modeOf(open)).toBe(0o600);
    expect(readTokensFile(open).length).toBe(tokens.length);
    expect(readTokensFile(open)[0]!.token).not.toBe(tokens[0]);
  });

  it('a tokens file that is not JSON is refused without quoting it', async () => {
    const broken = path.join(dir, 'broken-tokens.json');
    const token = secret();
    writeFileSync(broken, `[{"token": ${token}}]`);
    const run = await cli(['--base-url', 'http://127.0.0.1:9/v4', '--tokens', broken]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--tokens .*broken-tokens\.json: not valid JSON/);
    expect(run.stderr).not.toContain(token.slice(0, 8));
    expect(existsSync(path.join(dir, 'contract-reports'))).toBe(false);
  });
});
