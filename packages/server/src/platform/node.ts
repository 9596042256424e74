// The cryptography the areas need, from Node's own crypto (native speed on the server). The
// browser engine's build (tsup.config.ts) puts platform/browser.ts in this module's place:
// the same functions, the same results, from the web platform and @noble.
// test/unit/platform.test.ts checks that both give the same answers.
import { createHash, createHmac, generateKeyPairSync, randomBytes as nodeRandomBytes, scrypt as nodeScrypt, X509Certificate } from 'node:crypto';
import type { Platform } from './platform.js';

export const platform: Platform = {
  name: 'node',
  sha256: (data) => new Uint8Array(createHash('sha256').update(data).digest()),
  md5Hex: (text) => createHash('md5').update(text).digest('hex'),
  hmacSha256Hex: (key, text) => createHmac('sha256', key).update(text).digest('hex'),
  randomBytes: (size) => new Uint8Array(nodeRandomBytes(size)),
  scrypt: (password, salt, length) => new Promise((resolve, reject) => {
    nodeScrypt(password, salt, length, (error, key) => (error ? reject(error) : resolve(new Uint8Array(key))));
  }),
  ed25519PublicKey: () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    return new Uint8Array(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'));
  },
  x509CommonName: (pem) => {
    try {
      return /(?:^|\n)CN=([^\n]*)/.exec(new X509Certificate(pem).subject)?.[1] ?? '';
    } catch {
      return '';
    }
  },
};
