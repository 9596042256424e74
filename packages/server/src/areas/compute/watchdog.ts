// Boot jobs and the watchdog. Every boot the API starts (boot, reboot, rescue) is a boot job, and
// so is every boot the watchdog starts after an unexpected power-off. The power-off this server
// can tell is unexpected is a boot that fails: the requirements say an instance does not boot
// until its root device is mounted, so a profile whose root device slot holds nothing powers off
// when the kernel finds no root file system. With the watchdog enabled the instance is booted
// again, until more than five boot jobs started within 15 minutes; then it stays offline.
// Nothing runs in the background: the whole run is planned when the boot starts (a row per job,
// with its times) and the instance is `booting`/`rebooting` until the last job ends.
import type { Clock, StateColumns } from '../../core/clock.js';
import { transition } from '../../core/clock.js';
import type { VolumeAttachments } from '../../core/services.js';
import type { Trx } from '../../core/store/db.js';
import { FAILED_BOOT_MAX_MS, WATCHDOG_MAX_BOOT_JOBS, WATCHDOG_WINDOW_MS } from './model.js';
import { toConfigs } from './store.js';
import type { ConfigRow, InstanceRow, InstanceStatus } from './store.js';

const insertJob = (trx: Trx, computeId: number, startedAt: number, endsAt: number, byWatchdog: boolean) =>
  trx.insertInto('compute_boot_jobs').values({ compute_id: computeId, started_at: startedAt, ends_at: endsAt, by_watchdog: byWatchdog ? 1 : 0 }).execute();

/** Whether a profile boots: its root device (`/dev/sdX`) is a slot holding a disk or an attached volume. */
export async function bootable(trx: Trx, volumes: VolumeAttachments, profile: ConfigRow): Promise<boolean> {
  const [shown] = await toConfigs(trx, volumes, [profile]);
  return (shown!.devices as Record<string, unknown>)[profile.root_device.slice('/dev/'.length)] != null;
}

/**
 * The watchdog's boots after a power-off at `poweredOffAt`, each failing after `failMs` like the
 * one before: one more as long as at most five boot jobs started within the 15 minutes up to the
 * power-off. Answers when the last job ends (the instance is offline from then on).
 */
async function watchdogBoots(trx: Trx, computeId: number, poweredOffAt: number, failMs: number): Promise<number> {
  const rows = await trx.selectFrom('compute_boot_jobs').select('started_at').where('compute_id', '=', computeId).where('started_at', '>', poweredOffAt - WATCHDOG_WINDOW_MS).execute();
  const started = rows.map((r) => Number(r.started_at));
  let end = poweredOffAt;
  // Each job fails within FAILED_BOOT_MAX_MS, so six of them fall within the window: this ends.
  while (started.filter((at) => at > end - WATCHDOG_WINDOW_MS).length <= WATCHDOG_MAX_BOOT_JOBS) {
    await insertJob(trx, computeId, end, end + failMs, true);
    started.push(end);
    end += failMs;
  }
  return end;
}

/**
 * A boot (or reboot, from `running`) with `profile`: a job that ends running, or one that fails
 * and, with the watchdog enabled, the watchdog's jobs after it. Jobs older than the watchdog's
 * window are forgotten.
 */
export async function startBoot(trx: Trx, clock: Clock, volumes: VolumeAttachments, instance: InstanceRow, current: InstanceStatus, profile: ConfigRow): Promise<StateColumns<InstanceStatus>> {
  const now = clock.now();
  const state = current === 'running' ? 'rebooting' : 'booting';
  await trx.deleteFrom('compute_boot_jobs').where('compute_id', '=', instance.id).where('started_at', '<=', now - WATCHDOG_WINDOW_MS).execute();
  if (await bootable(trx, volumes, profile)) {
    await insertJob(trx, instance.id, now, now + clock.transitionMs, false);
    return transition(clock, state, 'running');
  }
  const failMs = Math.min(clock.transitionMs, FAILED_BOOT_MAX_MS);
  await insertJob(trx, instance.id, now, now + failMs, false);
  const end = instance.watchdog_enabled === 1 ? await watchdogBoots(trx, instance.id, now + failMs, failMs) : now + failMs;
  return { status: state, next_status: 'offline', transition_at: end };
}

/** A rescue boot: a boot job into the rescue system, which needs no root device of the profile. */
export async function startRescue(trx: Trx, clock: Clock, instanceId: number, current: InstanceStatus): Promise<StateColumns<InstanceStatus>> {
  const now = clock.now();
  await insertJob(trx, instanceId, now, now + clock.transitionMs, false);
  return transition(clock, current === 'running' ? 'rebooting' : 'booting', 'running');
}

/**
 * The watchdog turned on or off while boots fail: the job running now finishes, and what follows
 * is planned again with the new setting (off: the instance is offline when it ends). `row` is
 * the instance before the change, its row locked.
 */
export async function replanFailingBoots(trx: Trx, row: InstanceRow, enabled: boolean, now: number): Promise<void> {
  const failing = (row.status === 'booting' || row.status === 'rebooting') && row.next_status === 'offline' && row.transition_at !== null && row.transition_at > now;
  if (!failing) return;
  const currentJob = await trx.selectFrom('compute_boot_jobs').select(['started_at', 'ends_at']).where('compute_id', '=', row.id).where('started_at', '<=', now)
    .orderBy('started_at', 'desc').limit(1).executeTakeFirst();
  if (!currentJob) return;
  await trx.deleteFrom('compute_boot_jobs').where('compute_id', '=', row.id).where('started_at', '>', now).execute();
  const [startedAt, endsAt] = [Number(currentJob.started_at), Number(currentJob.ends_at)];
  const end = enabled ? await watchdogBoots(trx, row.id, endsAt, endsAt - startedAt) : endsAt;
  await trx.updateTable('compute_instances').set({ transition_at: end }).where('id', '=', row.id).execute();
}
