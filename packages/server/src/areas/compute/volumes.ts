// Volumes on an instance: the profile a volume goes to, the limits on how many an instance
// holds (eight in its profiles; without persistence one per GB of RAM, at most 64), and volumes
// attached without persistence leaving when the instance stops running. Every count is taken
// with the instance's row locked (PostgreSQL; SQLite has one writer), in the transaction that
// attaches, so concurrent attaches cannot pass a limit together.
import { settle } from '../../core/clock.js';
import { badRequest } from '../../core/errors.js';
import { forUpdate } from '../../core/store/kind.js';
import type { Trx } from '../../core/store/db.js';
import { instanceType, MAX_PERSISTENT_VOLUMES, MAX_TRANSIENT_VOLUMES, transientVolumeLimit } from './model.js';
import { configsOf, findInstance } from './store.js';

export interface Placement { configId?: number; persistent: boolean; now: number }
export type Placed = { configId: number | null } | { error: string; field: string };

async function attachedCount(trx: Trx, instanceId: number, persistent: boolean): Promise<number> {
  const row = await trx.selectFrom('volumes').select((eb) => eb.fn.countAll().as('n'))
    .where('compute_id', '=', instanceId).where('persistent', '=', persistent ? 1 : 0).executeTakeFirst();
  return Number(row?.n ?? 0);
}

const persistentFull = (instanceId: number) =>
  `Compute instance ${instanceId} already has ${MAX_PERSISTENT_VOLUMES} volumes attached with persist_across_boots, the most an instance (and a config) can hold`;

/**
 * Where a volume attached to an instance goes: with persistence, the profile given (one of the
 * instance's), else the only one, else the last booted; without it, no profile, and the instance
 * must be running. Locks the instance's row: call it in the transaction that attaches.
 */
export async function placeVolume(trx: Trx, instanceId: number, { configId, persistent, now }: Placement): Promise<Placed> {
  await forUpdate(trx, trx.selectFrom('compute_instances').select('id').where('id', '=', instanceId)).executeTakeFirst();
  const instance = await findInstance(trx, instanceId);
  if (!instance) return { error: `Compute instance ${instanceId} does not exist`, field: 'compute_id' };
  if (!persistent) {
    const status = settle(instance, now);
    if (status !== 'running') return { error: `Compute instance ${instanceId} is ${status}; a volume attached without persist_across_boots needs a running instance`, field: 'compute_id' };
    const type = instanceType(instance.type)!;
    const limit = transientVolumeLimit(type);
    if (await attachedCount(trx, instanceId, false) >= limit) {
      return { error: `Compute instance ${instanceId} has ${type.memory / 1024} GB of RAM and takes at most ${limit} volume${limit === 1 ? '' : 's'} attached without persist_across_boots (one per GB, at most ${MAX_TRANSIENT_VOLUMES})`, field: 'compute_id' };
    }
    return { configId: null };
  }
  const configs = await configsOf(trx, instanceId);
  let chosen: number;
  if (configId !== undefined) {
    if (!configs.some((c) => c.id === configId)) return { error: `Config ${configId} is not a config of compute instance ${instanceId}`, field: 'config_id' };
    chosen = configId;
  } else if (configs.length === 1) {
    chosen = configs[0]!.id;
  } else if (instance.last_config_id !== null && configs.some((c) => c.id === instance.last_config_id)) {
    chosen = instance.last_config_id;
  } else {
    return { error: configs.length ? `Compute instance ${instanceId} has several configs and none was last booted: give config_id` : `Compute instance ${instanceId} has no config to attach the volume to`, field: 'compute_id' };
  }
  if (await attachedCount(trx, instanceId, true) >= MAX_PERSISTENT_VOLUMES) return { error: persistentFull(instanceId), field: configId !== undefined ? 'config_id' : 'compute_id' };
  return { configId: chosen };
}

/** After a profile's devices attached volumes: still at most eight in the instance's profiles. */
export async function requirePersistentRoom(trx: Trx, instanceId: number, field: string): Promise<void> {
  if (await attachedCount(trx, instanceId, true) > MAX_PERSISTENT_VOLUMES) throw badRequest(persistentFull(instanceId), field);
}

/** The instance stops running (shutdown, reboot, rescue, resize, restore, clone onto it): volumes attached without persistence leave. */
export async function detachTransient(trx: Trx, instanceId: number, now: number): Promise<void> {
  await trx.updateTable('volumes').set({ compute_id: null, config_id: null, persistent: 1, updated: now })
    .where('compute_id', '=', instanceId).where('persistent', '=', 0).execute();
}
