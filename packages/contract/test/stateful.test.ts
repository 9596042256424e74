// The kit against implementations that keep state between runs and take time to settle: names
// the examples' first, unique per run when those are taken (a rerun does not collide with what an
// earlier run left), a bounded wait for a
// transitional status, undoing actions after the others (and not proven when there is nothing to undo).
import { describe, expect, it } from 'vitest';
import { findings, keys, runAgainst, withFake } from './support.js';

describe('against a server that keeps state between runs and takes time', () => {
  it('sends the examples\' names first and, when a rerun finds them taken, names what it creates uniquely per run, within the schemas', async () => {
    await withFake({ defect: 'delete-does-nothing' }, async (fake) => {
      // The first run's deletes do nothing: everything it made stays behind, labels included.
      await runAgainst(fake, { only: ['Volumes', 'Tags'], negative: false });
      fake.setDefect(undefined);
      const rerun = await runAgainst(fake, { only: ['Volumes', 'Tags'] });
      expect(findings(rerun)).toEqual([]);
      expect(rerun.exitCode).toBe(0);
      const left = fake.stored() as Record<string, { label: string }[]>;
      const labels = [...left['/volumes/{volumeId}']!, ...left['/tags/{label}']!].map((v) => v.label);
      expect(labels.length).toBeGreaterThan(1);
      expect(new Set(labels).size).toBe(labels.length);
      // The first run kept the examples' names; the rerun found them taken and used its own.
      expect(labels.filter((label) => /k[0-9a-f]{6}[0-9a-z]+/.test(label)).length).toBeGreaterThan(0);
      const retried = rerun.operations.flatMap((op) => op.requests).filter((r) => /with this run's names \(the example's are taken\)/.test(r.label));
      expect(retried.length).toBeGreaterThan(0);
    });
  });

  it('waits for what it acts on to leave a transitional status, bounded by --settle-timeout', async () => {
    // settleMs 0: no retry of a refusal; only the wait for the status can make this pass.
    await withFake({ transitionMs: 1200 }, async (fake) => {
      const result = await runAgainst(fake, { only: ['Volumes'], settleMs: 0, negative: false });
      expect(findings(result)).toEqual([]);
      expect(result.exitCode).toBe(0);
      const waits = result.operations.flatMap((op) => op.requests).filter((r) => /^wait for .* to settle/.test(r.label));
      expect(waits.length).toBeGreaterThan(1);
    });
    await withFake({ transitionMs: 60_000 }, async (fake) => {
      const result = await runAgainst(fake, { only: ['Volumes'], settleMs: 0, settleTimeoutMs: 300, negative: false });
      expect(findings(result, 'warn').map((f) => f.reason)).toContainEqual(expect.stringMatching(/was still "creating" after 300 ms \(--settle-timeout\): the operation went ahead/));
      expect(keys(findings(result))).toContain('resizeVolume › success');
      expect(result.exitCode).toBe(1);
    });
  });

  it('does not detach what could not be attached: the detach is not proven, not failed', async () => {
    await withFake({ defect: 'refuse-creates', defectOp: 'createComputeInstance' }, async (fake) => {
      const result = await runAgainst(fake, { only: ['Volumes'], negative: false, settleMs: 0 });
      const unproven = Object.fromEntries(result.operations.filter((op) => op.unproven).map((op) => [op.operationId, op.unproven]));
      expect(unproven.attachVolume).toMatch(/its body refers to compute_id: needs a \{computeId\} this run created/);
      expect(unproven.detachVolume).toMatch(/^it undoes attachVolume, which could not be run: its body refers to compute_id/);
      expect(fake.seen.filter((s) => s.method === 'POST' && /\/(attach|detach)$/.test(s.path))).toEqual([]);
      expect(findings(result)).toEqual([]);
      expect(result.exitCode).toBe(2);
    });
  });

  it('runs attach before detach', async () => {
    await withFake({}, async (fake) => {
      await runAgainst(fake, { only: ['Volumes'], negative: false });
      const actions = fake.seen.filter((s) => s.method === 'POST' && /\/(attach|detach)$/.test(s.path) && s.status === 200).map((s) => s.path.split('/').at(-1));
      expect(actions[0]).toBe('attach');
      expect(actions).toContain('detach');
    });
  });
});
