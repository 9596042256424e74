// Compute rows: table types, how rows become the API's objects, and the reads every handler
// shares (an instance, its disks, its profiles with their devices).
import type { components } from '@cloudapi/types';
import type { Generated, Selectable } from 'kysely';
import type { Clock, StateColumns } from '../../core/clock.js';
import { settle, timestamp } from '../../core/clock.js';
import { notFound } from '../../core/errors.js';
import type { VolumeAttachments } from '../../core/services.js';
import type { Db, Trx } from '../../core/store/db.js';
import type { TimestampColumns } from '../../core/store/schema.js';
import { taggableStore } from '../../core/taggable-store.js';
import type { WithTags } from '../../core/taggable-store.js';
import { tagLabels } from '../../core/tagging.js';
import { addresses, instanceType, SLOTS } from './model.js';
import type { Slot } from './model.js';

type Schemas = components['schemas'];
export type Instance = Schemas['ComputeInstance'];
export type InstanceStatus = Instance['status'];
export type Config = Schemas['ComputeConfig'];
export type Backup = Schemas['ComputeBackup'];
export type BackupStatus = Backup['status'];
export type Alerts = Schemas['ComputeAlerts'];

export const COMPUTE_KIND = 'compute';

export interface InstanceTable extends StateColumns<InstanceStatus>, TimestampColumns {
  id: Generated<number>;
  label: string;
  region: string;
  type: string;
  image: string | null;
  group_name: string;
  private_ip: number;
  backups_enabled: number;
  backup_day: string;
  backup_window: string;
  watchdog_enabled: number;
  /** JSON `ComputeAlerts`. */
  alerts: string;
  /** The profile the instance last booted with. */
  last_config_id: number | null;
}

export interface DiskTable extends TimestampColumns {
  id: Generated<number>;
  compute_id: number;
  label: string;
  /** MB. */
  size: number;
  filesystem: string;
}

export interface ConfigTable extends TimestampColumns {
  id: Generated<number>;
  compute_id: number;
  label: string;
  /** JSON: the slots in use, `{sda: {disk_id, volume_id}}`. */
  devices: string;
  comments: string | null;
  /** JSON `ComputeConfigHelpers`. */
  helpers: string;
  /** JSON: the interfaces without their ids (ids follow from the profile id and position). */
  interfaces: string;
  kernel: string;
  memory_limit: number;
  root_device: string;
  run_level: string;
  virt_mode: string;
}

export interface BackupTable extends StateColumns<BackupStatus>, TimestampColumns {
  id: Generated<number>;
  compute_id: number;
  region: string;
  type: 'auto' | 'snapshot';
  label: string | null;
  /** JSON `SavedConfig[]`. */
  configs: string;
  /** JSON `SavedDisk[]`. */
  disks: string;
}

export interface CloneJobTable {
  id: Generated<number>;
  source_id: number;
  target_id: number;
  finishes_at: number;
}

/** A boot job: asked for (boot, reboot, rescue) or the watchdog's; `ends_at` when it boots or fails. */
export interface BootJobTable {
  id: Generated<number>;
  compute_id: number;
  started_at: number;
  ends_at: number;
  by_watchdog: number;
}

/** One row per region, locked while the region's VLANs are counted. */
export interface RegionLockTable {
  region: string;
}

declare module '../../core/store/schema.js' {
  interface Database {
    compute_instances: InstanceTable;
    compute_disks: DiskTable;
    compute_configs: ConfigTable;
    compute_backups: BackupTable;
    compute_clone_jobs: CloneJobTable;
    compute_boot_jobs: BootJobTable;
    compute_region_locks: RegionLockTable;
  }
}

export type InstanceRow = WithTags<Selectable<InstanceTable>>;
export type DiskRow = Selectable<DiskTable>;
export type ConfigRow = Selectable<ConfigTable>;
export type BackupRow = Selectable<BackupTable>;

export type StoredDevice = { disk_id: number | null; volume_id: number | null };
export type StoredDevices = Partial<Record<Slot, StoredDevice>>;

/** A disk as a backup keeps it. */
export interface SavedDisk { label: string; size: number; filesystem: string }
/** A profile as a backup keeps it: its fields, and its disk slots as indexes into the saved disks. */
export interface SavedConfig { fields: ConfigFields; diskSlots: Partial<Record<Slot, number>> }

/** The columns of a profile other than its id, instance and times. */
export type ConfigFields = Omit<ConfigRow, 'id' | 'compute_id' | 'created' | 'updated'>;

export const json = <T>(text: string): T => JSON.parse(text) as T;

// ---- instances --------------------------------------------------------------------------------

export async function findInstance(db: Db | Trx, id: number): Promise<InstanceRow | undefined> {
  return instanceStore.find(db, id);
}

export async function instanceOrNotFound(db: Db | Trx, id: number): Promise<InstanceRow> {
  const row = await findInstance(db, id);
  if (!row) throw notFound(`Compute instance ${id} does not exist`);
  return row;
}

export function specsOf(type: string) {
  const t = instanceType(type);
  return { disk: t?.disk ?? 0, memory: t?.memory ?? 0, vcpus: t?.vcpus ?? 0, transfer: t?.transfer ?? 0 };
}

/** Rows as the API shows them. */
export function toInstances(rows: InstanceRow[], clock: Clock): Instance[] {
  const now = clock.now();
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    region: row.region,
    image: row.image,
    type: row.type,
    group: row.group_name,
    tags: tagLabels(row.tags),
    status: settle(row, now),
    hypervisor: 'kvm',
    created: timestamp(row.created),
    updated: timestamp(row.updated),
    ...addresses(row.id, row.private_ip === 1),
    specs: specsOf(row.type),
    alerts: json<Alerts>(row.alerts),
    backups: { enabled: row.backups_enabled === 1, schedule: { day: row.backup_day as never, window: row.backup_window as never } },
    watchdog_enabled: row.watchdog_enabled === 1,
  }));
}

export async function shownInstance(_db: Db | Trx, row: InstanceRow, clock: Clock): Promise<Instance> {
  return toInstances([row], clock)[0]!;
}

export const instanceStore = taggableStore<Selectable<InstanceTable>, Instance>({
  table: 'compute_instances', kind: COMPUTE_KIND, field: 'computes', show: (_db, rows, deps) => toInstances(rows, deps.clock),
});

// ---- disks and profiles -------------------------------------------------------------------------

export async function disksOf(db: Db | Trx, computeId: number): Promise<DiskRow[]> {
  return db.selectFrom('compute_disks').selectAll().where('compute_id', '=', computeId).orderBy('id').execute();
}

export async function configsOf(db: Db | Trx, computeId: number): Promise<ConfigRow[]> {
  return db.selectFrom('compute_configs').selectAll().where('compute_id', '=', computeId).orderBy('id').execute();
}

export async function configOrNotFound(db: Db | Trx, computeId: number, configId: number): Promise<ConfigRow> {
  const row = await db.selectFrom('compute_configs').selectAll().where('id', '=', configId).where('compute_id', '=', computeId).executeTakeFirst();
  if (!row) throw notFound(`Config ${configId} of compute instance ${computeId} does not exist`);
  return row;
}

/** Interface ids follow from the profile and the position, so they never change while both stay. */
const interfaceId = (configId: number, position: number) => configId * 10 + position + 1;

/**
 * Profiles as the API shows them. `devices` lists every slot, null when empty, as the service
 * does; a volume shows only while it is attached to the instance, and volumes attached to the
 * profile without a slot (attach, volume create) fill the free slots in order.
 */
export async function toConfigs(db: Db | Trx, attachments: VolumeAttachments, rows: ConfigRow[]): Promise<Config[]> {
  const volumes = await attachments.ofInstances(db, [...new Set(rows.map((r) => r.compute_id))]);
  return rows.map((row) => {
    const stored = json<StoredDevices>(row.devices);
    const attached = volumes.filter((v) => v.computeId === row.compute_id);
    const devices: Record<string, StoredDevice | null> = {};
    for (const slot of SLOTS) {
      const device = stored[slot];
      const keep = device && (device.volume_id === null || attached.some((v) => v.id === device.volume_id));
      devices[slot] = keep ? { disk_id: device.disk_id, volume_id: device.volume_id } : null;
    }
    const shown = new Set(Object.values(devices).map((d) => d?.volume_id).filter((id) => id != null));
    for (const volume of attached.filter((v) => v.configId === row.id && !shown.has(v.id))) {
      const free = SLOTS.find((slot) => devices[slot] === null);
      if (free) devices[free] = { disk_id: null, volume_id: volume.id };
    }
    return {
      id: row.id,
      label: row.label,
      devices: devices as Config['devices'],
      comments: row.comments,
      helpers: json(row.helpers),
      interfaces: json<object[]>(row.interfaces).map((i, position) => ({ id: interfaceId(row.id, position), ...i })) as Config['interfaces'],
      kernel: row.kernel,
      memory_limit: row.memory_limit,
      root_device: row.root_device,
      run_level: row.run_level as Config['run_level'],
      virt_mode: row.virt_mode as Config['virt_mode'],
      created: timestamp(row.created),
      updated: timestamp(row.updated),
    };
  });
}

// ---- backups ----------------------------------------------------------------------------------

export async function backupOrNotFound(db: Db | Trx, computeId: number, backupId: number): Promise<BackupRow> {
  const row = await db.selectFrom('compute_backups').selectAll().where('id', '=', backupId).where('compute_id', '=', computeId).executeTakeFirst();
  if (!row) throw notFound(`Backup ${backupId} of compute instance ${computeId} does not exist`);
  return row;
}

export function toBackup(row: BackupRow, now: number): Backup {
  const status = settle(row, now);
  const finishedAt = status === 'successful' ? (row.transition_at ?? row.updated) : null;
  return {
    id: row.id,
    type: row.type,
    status,
    created: timestamp(row.created),
    updated: timestamp(finishedAt ?? row.updated),
    finished: finishedAt === null ? null : timestamp(finishedAt),
    label: row.label,
    configs: json<SavedConfig[]>(row.configs).map((c) => c.fields.label),
    disks: json<SavedDisk[]>(row.disks),
  };
}
