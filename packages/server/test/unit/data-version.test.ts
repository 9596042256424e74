// The shared version reads of PostgreSQL (sharedReads in src/core/store/version.ts): one query on
// the wire at a time, and a caller that asks while one is there gets the next one's answer, never
// the one that may have left before a commit it must see.
import { describe, expect, it } from 'vitest';
import { sharedReads } from '../../src/core/store/version.js';

/** Reads whose answers the test releases one by one; each answers the number of reads sent. */
function manualReads() {
  const answers: (() => void)[] = [];
  let sent = 0;
  const read = () => {
    const number = ++sent;
    return new Promise<string>((resolve) => answers.push(() => resolve(`read ${number}`)));
  };
  return { read, sent: () => sent, answer: async () => { answers.shift()!(); await new Promise((r) => setImmediate(r)); } };
}

describe('shared version reads', () => {
  it('callers asking while a read is on the wire share the next read, never the one on the wire', async () => {
    const reads = manualReads();
    const shared = sharedReads(reads.read);
    const first = shared();
    const second = shared();
    const third = shared();
    expect(reads.sent()).toBe(1);
    await reads.answer();
    expect(await first).toBe('read 1');
    expect(reads.sent()).toBe(2);
    const fourth = shared();
    await reads.answer();
    expect([await second, await third]).toEqual(['read 2', 'read 2']);
    expect(reads.sent()).toBe(3);
    await reads.answer();
    expect(await fourth).toBe('read 3');
  });

  it('a caller asking when nothing is on the wire sends a read at once', async () => {
    const reads = manualReads();
    const shared = sharedReads(reads.read);
    const first = shared();
    await reads.answer();
    await first;
    const second = shared();
    expect(reads.sent()).toBe(2);
    await reads.answer();
    expect(await second).toBe('read 2');
  });
});
