// What the run does to a target, and when it stops: writes only where allowed, a dry run that
// sends nothing, the deadline and an interruption (both clean up), and shards that split the
// operations between machines without overlap.
import { describe, expect, it } from 'vitest';
import { AREAS, allOperations, findings, runAgainst, withFake } from './support.js';

const areaOps = allOperations.filter((op) => op.tags.some((t) => AREAS.includes(t)));

describe('safety', () => {
  it('against a remote target, changes nothing without --allow-writes and says which operations that leaves unproven', async () => {
    await withFake({}, async (fake) => {
      const result = await runAgainst(fake, { remote: true });
      expect(fake.seen.filter((s) => s.method !== 'GET')).toEqual([]);
      expect(result.safety!.reason).toMatch(/state-changing operations do not run/);
      const writes = areaOps.filter((op) => op.writes).map((op) => op.id);
      for (const id of writes) expect(result.operations.find((o) => o.operationId === id)!.unproven, id).toMatch(/--allow-writes runs it/);
      expect(findings(result)).toEqual([]);
      expect(result.exitCode).toBe(2);

      const allowed = await runAgainst(fake, { remote: true, allowWrites: true });
      expect(allowed.exitCode).toBe(0);
      expect(allowed.coverage.successValidated).toBe(areaOps.length);
    });
  });

  it('a dry run lists every request, ids still to be created included, and sends none', async () => {
    await withFake({}, async (fake) => {
      const result = await runAgainst(fake, { dryRun: true, examples: 2 });
      expect(fake.seen.map((s) => s.path)).toEqual([expect.stringMatching(/^\/v4\/cloudapi-contract-probe-/)]);
      expect(result.planned).toEqual(expect.arrayContaining([
        expect.stringMatching(/^POST http:\/\/127\.0\.0\.1:\d+\/v4\/volumes {2}\[authorization: Bearer \$TOKEN\] {2}\{"label":"backup-data".*\(valid request \(example "inRegion"\)\)$/),
        expect.stringMatching(/^DELETE http:\/\/127\.0\.0\.1:\d+\/v4\/volumes\/<volumeId made by createVolume>.*\(valid request\)$/),
        expect.stringMatching(/^GET .*\/v4\/volumes\/<volumeId made by createVolume>.*\(401 for a Basic credential\)$/),
        expect.stringMatching(/\(generated request\)$/),
      ]));
      expect(result.planned.length).toBeGreaterThan(150);
      expect(result.exitCode).toBe(0);
    });
  });
});

describe('stopping', () => {
  it('the deadline stops the run, and what it created is still cleaned up', async () => {
    await withFake({ defect: 'slow' }, async (fake) => {
      const result = await runAgainst(fake, { only: ['Volumes'], deadlineMs: 2500 });
      expect(result.abort).toMatch(/the deadline of 3 s was reached \(--deadline\)/);
      expect(result.exitCode).toBe(2);
      expect(result.cleanup.removed.length).toBeGreaterThan(0);
      // Whatever the run had created when the deadline came (on a loaded machine, maybe no volume
      // yet): something, and none of it left behind.
      expect(Object.keys(fake.stored()).length).toBeGreaterThan(0);
      expect(Object.entries(fake.stored()).filter(([, items]) => items.length > 0), 'left behind').toEqual([]);
      expect(result.operations.filter((op) => /not reached: the deadline/.test(op.unproven ?? '')).length).toBeGreaterThan(0);
    });
  });

  it('an interruption (Ctrl-C) stops sending, then cleans up', async () => {
    // Each answer 100 ms late: the run is still going when the first volume exists, and is interrupted then.
    await withFake({ defect: 'slow', slowMs: 100 }, async (fake) => {
      const controller = new AbortController();
      const watcher = setInterval(() => { if (fake.seen.some((s) => s.method === 'POST' && s.path === '/v4/volumes' && s.status === 200)) controller.abort(); }, 50);
      const result = await runAgainst(fake, { only: ['Volumes'], signal: controller.signal }).finally(() => clearInterval(watcher));
      expect(result.abort).toMatch(/interrupted/);
      expect(result.exitCode).toBe(2);
      expect(result.cleanup.removed.join('\n')).toMatch(/\/volumes\/\{volumeId\} volumeId=\d+ \(made by createVolume\)/);
      expect(fake.stored()['/volumes/{volumeId}']).toEqual([]);
    });
  });

  it('a target that stops answering after the first request ends the run after five failures in a row', async () => {
    await withFake({ defect: 'close-after-probe' }, async (fake) => {
      const result = await runAgainst(fake, {});
      expect(result.exitCode).toBe(2);
      expect(result.abort).toMatch(/^the target is unusable: 5 requests in a row got no usable answer \(last: \w+ http:\/\/127\.0\.0\.1:\d+\/v4\/.*: .*(socket hang up|ECONNRESET)\)$/);
      expect(fake.seen.length).toBe(1);
    });
  });

  it('a target that closes every connection ends the run at once with the reason', async () => {
    await withFake({ defect: 'close-connections' }, async (fake) => {
      const result = await runAgainst(fake, {});
      expect(result.exitCode).toBe(2);
      expect(result.abort).toMatch(/^the target could not be reached: no answer from http:\/\/127\.0\.0\.1:\d+\/v4: .*(socket hang up|ECONNRESET)/);
    });
  });
});

describe('shards', () => {
  it('split the operations without overlap, each shard creating what its operations need', async () => {
    await withFake({}, async (fake) => {
      const one = await runAgainst(fake, { shard: { index: 1, count: 2 } });
      const two = await runAgainst(fake, { shard: { index: 2, count: 2 } });
      const ids = (r: typeof one) => r.operations.map((op) => op.operationId);
      expect(ids(one).filter((id) => ids(two).includes(id))).toEqual([]);
      expect([...ids(one), ...ids(two)].sort()).toEqual(areaOps.map((op) => op.id).sort());
      expect([one.exitCode, two.exitCode]).toEqual([0, 0]);
      expect(one.coverage.successValidated + two.coverage.successValidated).toBe(areaOps.length);
    });
  });
});
