// What the areas need from the platform they run on: hashes, randomness, key material and the
// X.509 subject of a certificate. platform/node.ts gives it on the server, platform/browser.ts
// in the browser engine (@cloudapi/server/engine); areas import `platform` from ./node.js and the
// engine's build swaps the file, so no area carries a second implementation.

export interface Platform {
  name: 'node' | 'browser';
  sha256(data: string | Uint8Array): Uint8Array;
  md5Hex(text: string): string;
  hmacSha256Hex(key: string, text: string): string;
  randomBytes(size: number): Uint8Array;
  /** scrypt with N=16384, r=8, p=1 (Node's defaults). */
  scrypt(password: string, salt: Uint8Array, length: number): Promise<Uint8Array>;
  /** The raw 32 bytes of a new Ed25519 public key (its private half is dropped). */
  ed25519PublicKey(): Uint8Array;
  /** The subject's common name of a PEM certificate; '' when it cannot be parsed as X.509. */
  x509CommonName(pem: string): string;
}
