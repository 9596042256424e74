// The image upload's byte limits: a gzip bomb is cut off on its decompressed side, streamed.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { byteLimit } from '../../src/areas/images/upload.js';

describe('image upload limits', () => {
  it('a small gzip that expands past the limit fails with a 413 naming the decompressed side, without holding it', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MiB of zeros: about 64 KB compressed
    expect(bomb.length).toBeLessThan(100 * 1024);
    let passed = 0;
    const sink = new Writable({ write(chunk: Buffer, _e, cb) { passed += chunk.length; cb(); } });
    const run = pipeline(Readable.from([bomb]), byteLimit(1024 * 1024, 'compressed'), createGunzip(), byteLimit(1024 * 1024, 'decompressed'), sink);
    await expect(run).rejects.toMatchObject({ status: 413, errors: [{ reason: expect.stringMatching(/1048576 bytes decompressed/) }] });
    expect(passed).toBeLessThanOrEqual(1024 * 1024);
  });

  it('within both limits the bytes pass', async () => {
    let passed = 0;
    const sink = new Writable({ write(chunk: Buffer, _e, cb) { passed += chunk.length; cb(); } });
    await pipeline(Readable.from([gzipSync(Buffer.alloc(4096, 1))]), byteLimit(8192, 'compressed'), createGunzip(), byteLimit(8192, 'decompressed'), sink);
    expect(passed).toBe(4096);
  });
});
