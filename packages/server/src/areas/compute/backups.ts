// Backups and snapshots: a snapshot replaces the last one, cancel deletes every backup, a restore
// writes a backup onto an instance (replacing what it holds, or beside it when there is space).
import { defineHandlers } from '../../core/area.js';
import { settle, transition } from '../../core/clock.js';
import { badRequest } from '../../core/errors.js';
import { clearContents, saveAll, sizeOf, writeContents } from './contents.js';
import { changeState, lockInstance, requireSteady, requireType } from './rules.js';
import { backupOrNotFound, COMPUTE_KIND, disksOf, findInstance, instanceOrNotFound, json, toBackup } from './store.js';
import type { SavedConfig, SavedDisk } from './store.js';

export const backupHandlers = defineHandlers({
  listComputeBackups: async (ctx) => {
    const { computeId } = ctx.params;
    await instanceOrNotFound(ctx.db, computeId);
    const now = ctx.clock.now();
    const rows = await ctx.db.selectFrom('compute_backups').selectAll().where('compute_id', '=', computeId).orderBy('id', 'desc').execute();
    const snapshots = rows.filter((r) => r.type === 'snapshot').map((r) => toBackup(r, now));
    return {
      automatic: rows.filter((r) => r.type === 'auto').map((r) => toBackup(r, now)),
      snapshot: {
        in_progress: snapshots.find((b) => b.status !== 'successful') ?? null,
        current: snapshots.find((b) => b.status === 'successful') ?? null,
      },
    };
  },

  getComputeBackup: async (ctx) => toBackup(await backupOrNotFound(ctx.db, ctx.params.computeId, ctx.params.backupId), ctx.clock.now()),

  // A new snapshot deletes the existing one; while one is being taken, another is refused.
  createComputeSnapshot: async (ctx) => {
    const { computeId } = ctx.params;
    const row = await ctx.write(async (trx) => {
      const instance = await lockInstance(trx, computeId);
      const now = ctx.clock.now();
      const snapshots = await trx.selectFrom('compute_backups').selectAll().where('compute_id', '=', computeId).where('type', '=', 'snapshot').execute();
      if (snapshots.some((s) => settle(s, now) !== 'successful')) throw badRequest(`A snapshot of compute instance ${computeId} is in progress; wait for it to finish`);
      await trx.deleteFrom('compute_backups').where('compute_id', '=', computeId).where('type', '=', 'snapshot').execute();
      const contents = await saveAll(trx, computeId);
      return trx.insertInto('compute_backups').values({
        compute_id: computeId, region: instance.region, type: 'snapshot', label: ctx.body.label,
        configs: JSON.stringify(contents.configs), disks: JSON.stringify(contents.disks),
        ...transition(ctx.clock, 'running', 'successful'), created: now, updated: now,
      }).returningAll().executeTakeFirstOrThrow();
    });
    return toBackup(row, ctx.clock.now());
  },

  // Cancels the backup service: every backup of the instance is deleted for good.
  cancelComputeBackups: async (ctx) => {
    const { computeId } = ctx.params;
    await ctx.write(async (trx) => {
      await instanceOrNotFound(trx, computeId);
      await trx.deleteFrom('compute_backups').where('compute_id', '=', computeId).execute();
      await trx.updateTable('compute_instances').set({ backups_enabled: 0, updated: ctx.clock.now() }).where('id', '=', computeId).execute();
    });
    return {};
  },

  enableComputeBackups: async (ctx) => {
    const { computeId } = ctx.params;
    await ctx.write(async (trx) => {
      await instanceOrNotFound(trx, computeId);
      await trx.updateTable('compute_instances').set({ backups_enabled: 1, updated: ctx.clock.now() }).where('id', '=', computeId).execute();
    });
    return {};
  },

  // Onto `compute_id` (read_write, same region, no running action). With `overwrite` the target's
  // disks and profiles are deleted first; without it the backup must fit beside them. The target
  // is `restoring`, then offline.
  restoreComputeBackup: async (ctx) => {
    const { computeId, backupId } = ctx.params;
    const { compute_id: targetId, overwrite = false } = ctx.body;
    await ctx.write(async (trx) => {
      const backup = await backupOrNotFound(trx, computeId, backupId);
      const status = settle(backup, ctx.clock.now());
      if (status !== 'successful') throw badRequest(`Backup ${backupId} is ${status}; only successful backups can be restored`);
      const target = await findInstance(trx, targetId);
      if (!target) throw badRequest(`Compute instance ${targetId} does not exist`, 'compute_id');
      await ctx.requirePermission(trx, COMPUTE_KIND, targetId, 'read_write');
      if (target.region !== backup.region) throw badRequest(`Backup ${backupId} is in ${backup.region} and compute instance ${targetId} in ${target.region}: they must be in the same region`, 'compute_id');
      const disks = json<SavedDisk[]>(backup.disks);
      const capacity = requireType(target.type).disk;
      if (overwrite) {
        if (sizeOf(disks) > capacity) throw badRequest(`Compute instance ${targetId} has ${capacity} MB of disk; the backup needs ${sizeOf(disks)} MB`, 'compute_id');
      } else {
        const free = capacity - sizeOf(await disksOf(trx, targetId));
        if (sizeOf(disks) > free) throw badRequest(`Insufficient space: compute instance ${targetId} has ${free} MB free and the backup needs ${sizeOf(disks)} MB; restore with overwrite, or make space`, 'overwrite');
      }
      await changeState(trx, ctx, targetId, (current) => {
        requireSteady(targetId, current, 'a restore', 'compute_id');
        return transition(ctx.clock, 'restoring', 'offline');
      });
      if (overwrite) await clearContents(trx, ctx.services.volumes, targetId);
      await writeContents(trx, ctx.clock, targetId, { disks, configs: json<SavedConfig[]>(backup.configs) });
    });
    return {};
  },
});
