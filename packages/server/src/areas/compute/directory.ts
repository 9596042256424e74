// What Compute tells other areas: instances (Volumes, Managed), the profile a volume goes to,
// disks (Images captures them), and instances as taggable objects (Tags).
import type { ComputeDirectory, InstanceSummary, TaggableKind } from '../../core/services.js';
import { MAX_VOLUMES_PER_CONFIG, addresses } from './model.js';
import { COMPUTE_KIND, configsOf, findInstance, selectInstances, toInstances } from './store.js';
import type { InstanceRow } from './store.js';

const summary = (row: Pick<InstanceRow, 'id' | 'label' | 'region' | 'group_name' | 'private_ip'>): InstanceSummary => ({
  id: row.id, label: row.label, region: row.region, group: row.group_name, ipv4: addresses(row.id, row.private_ip === 1).ipv4,
});

const summaryColumns = ['id', 'label', 'region', 'group_name', 'private_ip'] as const;

export const computes: ComputeDirectory = {
  async instance(db, id) {
    const row = await findInstance(db, id);
    return row && summary(row);
  },

  async page(db, offset, limit) {
    const rows = await db.selectFrom('compute_instances').select([...summaryColumns]).orderBy('id').limit(limit).offset(offset).execute();
    const total = await db.selectFrom('compute_instances').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return { items: rows.map(summary), total: Number(total?.n ?? 0) };
  },

  async labels(db, ids) {
    const rows = ids.length ? await db.selectFrom('compute_instances').select(['id', 'label']).where('id', 'in', ids).execute() : [];
    return new Map(rows.map((r) => [r.id, r.label]));
  },

  // The profile given (one of the instance's), else the only one, else the last booted; a
  // profile holds at most eight volumes.
  async configForVolume(db, instanceId, configId) {
    const instance = await findInstance(db, instanceId);
    if (!instance) return { error: `Compute instance ${instanceId} does not exist`, field: 'compute_id' };
    const configs = await configsOf(db, instanceId);
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
    const held = await db.selectFrom('volumes').select((eb) => eb.fn.countAll().as('n')).where('config_id', '=', chosen).executeTakeFirst();
    if (Number(held?.n ?? 0) >= MAX_VOLUMES_PER_CONFIG) return { error: `Config ${chosen} already holds ${MAX_VOLUMES_PER_CONFIG} volumes, the most an instance's config can hold`, field: configId !== undefined ? 'config_id' : 'compute_id' };
    return { configId: chosen };
  },

  async disk(db, diskId) {
    const row = await db.selectFrom('compute_disks').select(['id', 'label', 'size', 'compute_id']).where('id', '=', diskId).executeTakeFirst();
    return row && { id: row.id, label: row.label, size: row.size, computeId: row.compute_id };
  },
};

export const computeTaggable: TaggableKind = {
  type: COMPUTE_KIND,
  field: 'computes',
  entity: COMPUTE_KIND,
  async existing(db, ids) {
    const rows = ids.length ? await db.selectFrom('compute_instances').select('id').where('id', 'in', ids).execute() : [];
    return new Set(rows.map((r) => r.id));
  },
  async load(db, ids, deps) {
    const rows = ids.length ? await selectInstances(db).where('compute_instances.id', 'in', ids).execute() : [];
    const instances = await toInstances(db, rows, deps.clock);
    return new Map(instances.map((i) => [i.id, i]));
  },
};
