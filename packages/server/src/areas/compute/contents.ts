// What an instance holds (disks and profiles), copied whole: a backup saves it, a restore, a clone
// and a deploy from a backup write it onto an instance. Volumes stay out: they are not the
// instance's disks.
import type { Clock } from '../../core/clock.js';
import type { VolumeAttachments } from '../../core/services.js';
import type { Trx } from '../../core/store/db.js';
import { SLOTS } from './model.js';
import type { Slot } from './model.js';
import { configsOf, disksOf, json } from './store.js';
import type { ConfigFields, ConfigRow, DiskRow, SavedConfig, SavedDisk, StoredDevices } from './store.js';

export interface Contents { disks: SavedDisk[]; configs: SavedConfig[] }

const fieldsOf = (row: ConfigRow): ConfigFields => {
  const { id: _id, compute_id: _computeId, created: _created, updated: _updated, ...fields } = row;
  return fields;
};

/** Saves profiles and disks: each profile's disk slots point into the saved disks. */
export function save(configs: ConfigRow[], disks: DiskRow[]): Contents {
  const index = new Map(disks.map((d, i) => [d.id, i]));
  return {
    disks: disks.map((d) => ({ label: d.label, size: d.size, filesystem: d.filesystem })),
    configs: configs.map((config) => {
      const diskSlots: Partial<Record<Slot, number>> = {};
      const devices = json<StoredDevices>(config.devices);
      for (const slot of SLOTS) {
        const diskId = devices[slot]?.disk_id;
        if (diskId != null && index.has(diskId)) diskSlots[slot] = index.get(diskId)!;
      }
      return { fields: fieldsOf(config), diskSlots };
    }),
  };
}

/** Everything an instance holds. */
export async function saveAll(trx: Trx, computeId: number): Promise<Contents> {
  return save(await configsOf(trx, computeId), await disksOf(trx, computeId));
}

export const sizeOf = (disks: readonly { size: number }[]) => disks.reduce((sum, d) => sum + d.size, 0);

/** Writes saved contents onto an instance (new disks and profiles); answers the new profile ids. */
export async function writeContents(trx: Trx, clock: Clock, computeId: number, contents: Contents): Promise<number[]> {
  const now = clock.now();
  const diskIds: number[] = [];
  for (const disk of contents.disks) {
    const { id } = await trx.insertInto('compute_disks').values({ compute_id: computeId, ...disk, created: now, updated: now }).returning('id').executeTakeFirstOrThrow();
    diskIds.push(id);
  }
  const configIds: number[] = [];
  for (const config of contents.configs) {
    const devices: StoredDevices = {};
    for (const [slot, index] of Object.entries(config.diskSlots)) devices[slot as Slot] = { disk_id: diskIds[index]!, volume_id: null };
    const { id } = await trx.insertInto('compute_configs')
      .values({ ...config.fields, compute_id: computeId, devices: JSON.stringify(devices), created: now, updated: now })
      .returning('id').executeTakeFirstOrThrow();
    configIds.push(id);
  }
  return configIds;
}

/** Deletes an instance's disks and profiles; volumes in those profiles stay attached, profile-less. */
export async function clearContents(trx: Trx, volumes: VolumeAttachments, computeId: number): Promise<void> {
  await trx.deleteFrom('compute_disks').where('compute_id', '=', computeId).execute();
  await trx.deleteFrom('compute_configs').where('compute_id', '=', computeId).execute();
  await volumes.leaveProfiles(trx, { computeId });
  await trx.updateTable('compute_instances').set({ last_config_id: null }).where('id', '=', computeId).execute();
}
