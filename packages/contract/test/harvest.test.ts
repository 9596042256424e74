// Ids of things no operation creates (a machine's parts, the spec's disks) come from the target's
// answers: the kit reads where the target names them (the machine's part list), sends those in
// place of the examples' ids (in the examples' order), and makes what holds them first (the
// machine before a snapshot of its part, though the snapshot comes first in the document).
import { describe, expect, it } from 'vitest';
import { Harvest } from '../src/model/harvest.js';
import { runContract } from '../src/index.js';
import { startFake } from './fixtures/fake.js';
import { partsDocument, partsWorld } from './fixtures/parts.js';

const full = [{ token: 'parts-token', scopes: '*', grants: 'all' as const, restricted: false }];

describe('ids named by the target', () => {
  it('sends the ids the target named in its answers in place of the examples\', and makes what holds them first', async () => {
    const world = partsWorld();
    const fake = await startFake({ document: partsDocument, tokens: full, hooks: world.hooks });
    try {
      const result = await runContract({ baseUrl: fake.baseUrl, tokens: full, document: partsDocument, examples: 0, timeoutMs: 5000 });
      const failed = result.operations.flatMap((op) => op.requests.flatMap((r) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${op.operationId} › ${c.name}: ${c.reason}`)));
      expect(failed).toEqual([]);
      expect(result.coverage).toMatchObject({ selected: 8, successValidated: 8 });
      expect(result.exitCode).toBe(0);
      // The machine's parts (7001, 7002) stand in for the examples' 501 and 502, in that order.
      expect(world.sent.find((s) => s.op === 'createMount')!.body).toEqual({ devices: { a: { part_id: 7001 }, b: { part_id: 7002 } } });
      expect(world.sent.find((s) => s.op === 'createSnapshot')!.body).toMatchObject({ part_id: 7001 });
      // The machine was made before the snapshot, and its parts were read before the mount.
      const order = fake.seen.map((s) => `${s.method} ${s.path.replace(/\?.*$/, '')}`);
      expect(order.indexOf('POST /v4/machines')).toBeLessThan(order.indexOf('POST /v4/snapshots'));
      const mount = result.operations.find((op) => op.operationId === 'createMount')!.requests;
      expect(mount.findIndex((r) => /^find the partIds the target names \(listMachineParts\)$/.test(r.label))).toBeLessThan(mount.findIndex((r) => r.kind === 'positive'));
    } finally {
      await fake.stop();
    }
  });

  it('keeps the ids of each context apart, prefers the answer about what the request addresses, and keeps the examples\' order', () => {
    const harvest = new Harvest((key) => key !== 'machineId', new Map([['partId', [501, 502]]]));
    harvest.record({ data: [{ part_id: 9, machine_id: 1 }, { part_id: 8 }] }, { machineId: 1 });
    harvest.record({ devices: { a: { part_id: 20 } }, parts: [21, 22] }, { machineId: 2 });
    expect(harvest.values('partId', { machineId: 1 })).toEqual([8, 9]);
    expect(harvest.values('partId', { machineId: '2' })).toEqual([20, 21, 22]);
    expect(harvest.values('partId', {})).toEqual([20, 21, 22]);
    expect(harvest.knows('partId', 9, { machineId: 2 })).toBe(false);
    expect(harvest.knows('partId', 9, {})).toBe(true);
    expect(harvest.values('machineId', {})).toEqual([]);
    // An example's id stands for the target's id of the same rank; an id the target named stays.
    expect(harvest.standIn('partId', 502, { machineId: 1 })).toBe(9);
    expect(harvest.standIn('partId', [501, 502], { machineId: 1 })).toEqual([8, 9]);
    expect(harvest.standIn('partId', 9, { machineId: 1 })).toBe(9);
    expect(harvest.standIn('volumeId', 12345, { machineId: 1 })).toBeUndefined();
  });
});
