// What Compute tells other areas: instances (Volumes, Managed), where a volume goes (volumes.ts),
// and disks (Images captures them). Built on the server's services: placing a volume counts the
// instance's volumes through the Volumes area.
import type { ComputeDirectory, InstanceSummary, Services } from '../../core/services.js';
import { addresses } from './model.js';
import { findInstance } from './store.js';
import type { InstanceRow } from './store.js';
import { placeVolume } from './volumes.js';

const summary = (row: Pick<InstanceRow, 'id' | 'label' | 'region' | 'group_name' | 'private_ip'>): InstanceSummary => ({
  id: row.id, label: row.label, region: row.region, group: row.group_name, ipv4: addresses(row.id, row.private_ip === 1).ipv4,
});

const summaryColumns = ['id', 'label', 'region', 'group_name', 'private_ip'] as const;

export const computeDirectory = (services: Services): ComputeDirectory => ({
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

  placeVolume: (trx, instanceId, placement) => placeVolume(trx, services.volumes, instanceId, placement),

  async disk(db, diskId) {
    const row = await db.selectFrom('compute_disks').select(['id', 'label', 'size', 'compute_id']).where('id', '=', diskId).executeTakeFirst();
    return row && { id: row.id, label: row.label, size: row.size, computeId: row.compute_id };
  },
});
