// The browser engine's platform (see platform.ts): the web platform's random numbers, @noble's
// audited hashes, scrypt and Ed25519, and a DER walk to the subject's common name. The engine's
// build puts this file in place of platform/node.ts.
import { ed25519 } from '@noble/curves/ed25519.js';
import { hmac } from '@noble/hashes/hmac.js';
import { md5 } from '@noble/hashes/legacy.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { fromBase64, toHex, utf8 } from './bytes.js';
import type { Platform } from './platform.js';

const bytesOf = (data: string | Uint8Array) => (typeof data === 'string' ? utf8(data) : data);

interface Der {
  tag: number;
  /** Where the contents start and end. */
  start: number;
  end: number;
}

/** The DER element at `at`: its tag and where its contents lie. */
function readDer(bytes: Uint8Array, at: number): Der {
  const tag = bytes[at]!;
  let length = bytes[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count < 1 || count > 4) throw new Error('DER length out of range');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[start + i]!;
    start += count;
  }
  if (start + length > bytes.length) throw new Error('DER element past the end');
  return { tag, start, end: start + length };
}

function children(bytes: Uint8Array, parent: Der): Der[] {
  const list: Der[] = [];
  for (let at = parent.start; at < parent.end; at = list[list.length - 1]!.end) list.push(readDer(bytes, at));
  return list;
}

const COMMON_NAME_OID = '55 04 03';
const hexOf = (bytes: Uint8Array, { start, end }: Der) => Array.from(bytes.subarray(start, end), (b) => b.toString(16).padStart(2, '0')).join(' ');

/** The first common name of a certificate's subject (Certificate → tbsCertificate → subject, RFC 5280 §4.1). */
function commonName(der: Uint8Array): string {
  const certificate = readDer(der, 0);
  const tbs = children(der, children(der, certificate)[0]!);
  const fields = tbs[0]?.tag === 0xa0 ? tbs.slice(1) : tbs; // the explicit [0] version is optional
  const subject = fields[4]; // serialNumber, signature, issuer, validity, subject
  if (!subject || subject.tag !== 0x30) throw new Error('no subject');
  for (const set of children(der, subject)) {
    for (const pair of children(der, set)) {
      const [oid, value] = children(der, pair);
      if (oid && value && oid.tag === 0x06 && hexOf(der, oid) === COMMON_NAME_OID) {
        const content = der.subarray(value.start, value.end);
        // BMPString is UTF-16BE; the others (UTF8, Printable, IA5, T61) read as UTF-8.
        if (value.tag === 0x1e) return String.fromCharCode(...Array.from({ length: content.length / 2 }, (_, i) => (content[2 * i]! << 8) | content[2 * i + 1]!));
        return new TextDecoder().decode(content);
      }
    }
  }
  return '';
}

export const platform: Platform = {
  name: 'browser',
  sha256: (data) => sha256(bytesOf(data)),
  md5Hex: (text) => toHex(md5(utf8(text))),
  hmacSha256Hex: (key, text) => toHex(hmac(sha256, utf8(key), utf8(text))),
  randomBytes: (size) => globalThis.crypto.getRandomValues(new Uint8Array(size)),
  scrypt: (password, salt, length) => scryptAsync(utf8(password), salt, { N: 16384, r: 8, p: 1, dkLen: length }),
  ed25519PublicKey: () => ed25519.getPublicKey(ed25519.utils.randomSecretKey()),
  x509CommonName: (pem) => {
    const body = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem)?.[1];
    if (!body) return '';
    try {
      return commonName(fromBase64(body));
    } catch {
      return '';
    }
  },
};
