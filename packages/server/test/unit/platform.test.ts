// The two platforms the areas run on (src/platform/): node.ts on the server, browser.ts in the
// browser engine. Both must give the same answers wherever an answer is determined: hashes,
// HMACs, scrypt for a given salt, the shape of an SSH key, and a certificate's common name
// (certificates made here with openssl, with a PrintableString, a UTF-8 and a missing CN).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { platform as browser } from '../../src/platform/browser.js';
import { toHex } from '../../src/platform/bytes.js';
import { platform as node } from '../../src/platform/node.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cloudapi-platform-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A self-signed certificate with this subject, made by openssl (which must be installed). */
function certificate(name: string, subject: string, extra: string[] = []): string {
  const out = path.join(dir, `${name}.pem`);
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', path.join(dir, `${name}.key`), '-out', out, '-days', '1', '-subj', subject, ...extra], { stdio: 'pipe' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('this test makes certificates with the openssl command: install it (apt-get install openssl)');
    throw error;
  }
  return readFileSync(out, 'utf8');
}

describe('platform: node and browser give the same answers', () => {
  it('hashes, HMACs and scrypt', async () => {
    for (const input of ['', 'abc', 'ünïcødé ✓', 'x'.repeat(5000)]) {
      expect(toHex(browser.sha256(input))).toBe(toHex(node.sha256(input)));
      expect(browser.md5Hex(input)).toBe(node.md5Hex(input));
      expect(browser.hmacSha256Hex('secret', input)).toBe(node.hmacSha256Hex('secret', input));
    }
    expect(toHex(browser.sha256(new Uint8Array([0, 1, 2, 255])))).toBe(toHex(node.sha256(new Uint8Array([0, 1, 2, 255]))));
    const salt = new Uint8Array(16).fill(7);
    expect(toHex(await browser.scrypt('p4ss', salt, 32))).toBe(toHex(await node.scrypt('p4ss', salt, 32)));
  });

  it('random bytes and Ed25519 public keys of the right sizes, different each time', () => {
    for (const p of [node, browser]) {
      expect(p.randomBytes(24)).toHaveLength(24);
      expect(toHex(p.randomBytes(16))).not.toBe(toHex(p.randomBytes(16)));
      expect(p.ed25519PublicKey()).toHaveLength(32);
      expect(toHex(p.ed25519PublicKey())).not.toBe(toHex(p.ed25519PublicKey()));
    }
  });

  it('reads a certificate\'s common name as Node\'s X509Certificate does', () => {
    const cases = [
      certificate('plain', '/C=US/O=Example/CN=www.example.org'),
      certificate('utf8', '/O=Exämple/CN=bücher.example', ['-utf8']),
      certificate('no-cn', '/O=No Common Name'),
    ];
    expect(cases.map((pem) => node.x509CommonName(pem))).toEqual(['www.example.org', 'bücher.example', '']);
    expect(cases.map((pem) => browser.x509CommonName(pem))).toEqual(cases.map((pem) => node.x509CommonName(pem)));
    for (const broken of ['', 'not a certificate', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----']) {
      expect(browser.x509CommonName(broken)).toBe('');
      expect(node.x509CommonName(broken)).toBe('');
    }
  });
});
