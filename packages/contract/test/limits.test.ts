// A correct server enforces limits (the reference server: at most 8 persistent volumes per
// instance). What the kit's own checks make on the way (generated creates, probes that should have
// been refused) is deleted right after them, so it never uses up a limit an example needs later.
import { describe, expect, it } from 'vitest';
import type { FakeHooks } from './fixtures/fake.js';
import { findings, runAgainst, withFake } from './support.js';

const MOST = 3;

/** An instance holds at most MOST volumes, created on it (`compute_id`) or attached; a detach or delete frees the place. */
function volumeLimit(): { hooks: FakeHooks; most: () => number } {
  const holder = new Map<string, number>(); // volumeId → the instance it is on
  let most = 0;
  const onIt = (instance: number, except?: string) => [...holder].filter(([volume, on]) => on === instance && volume !== except).length;
  const hooks: FakeHooks = {
    before(op, { path, body }) {
      if (!op.path.startsWith('/volumes') || !Number.isInteger(body?.compute_id)) return undefined;
      if (onIt(body.compute_id, path.volumeId) < MOST) return undefined;
      return { status: 400, body: { errors: [{ field: 'compute_id', reason: `Instance ${body.compute_id} already holds ${MOST} volumes, the most it can.` }] } };
    },
    after(op, answer, request) {
      if (answer.status >= 300 || !request || !op.path.startsWith('/volumes')) return;
      const volume = request.path.volumeId ?? String((answer.body as any)?.id);
      if (op.method === 'delete' || /^detach/.test(op.id)) holder.delete(volume);
      else if (Number.isInteger(request.body?.compute_id) && (op.id === 'createVolume' || /^attach/.test(op.id))) holder.set(volume, request.body.compute_id);
      most = Math.max(most, ...[...new Set(holder.values())].map((instance) => onIt(instance)));
    },
  };
  return { hooks, most: () => most };
}

describe('against a server that enforces a limit', () => {
  it('deletes what generated requests made right after them, so the examples of later operations stay within the limit', async () => {
    const world = volumeLimit();
    await withFake({ hooks: world.hooks }, async (fake) => {
      const result = await runAgainst(fake, { only: ['Volumes'], examples: 12, seed: 5 });
      expect(findings(result)).toEqual([]);
      expect(result.exitCode).toBe(0);
      // Generated creates put volumes on the instance and were deleted at once, before attachVolume's examples ran.
      const removedEarly = result.cleanup.removedAfterCheck.filter((r) => /^\/volumes\/\{volumeId\} volumeId=\d+ \(made by (createVolume|cloneVolume)\)$/.test(r));
      expect(removedEarly.length).toBeGreaterThan(2);
      const order = fake.seen.map((s) => `${s.method} ${s.path} ${s.status}`);
      const firstAttach = order.findIndex((s) => /^POST \/v4\/volumes\/\d+\/attach 200$/.test(s));
      expect(firstAttach).toBeGreaterThan(0);
      expect(order.slice(0, firstAttach).filter((s) => /^DELETE \/v4\/volumes\/\d+ 200$/.test(s)).length).toBeGreaterThan(2);
      expect(world.most()).toBeLessThanOrEqual(MOST);
      expect(fake.stored()['/volumes/{volumeId}']).toEqual([]);
      expect(result.cleanup.leftBehind).toEqual([]);
    });
  });
});
