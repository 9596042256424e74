// The volumes attached to instances, as the Volumes area offers them to Compute
// (`services.volumes`): Compute's profiles, limits and instance lifecycle read and move
// attachments through these calls and never name the `volumes` table.
import type { VolumeAttachment, VolumeAttachments } from '../../core/services.js';

const columns = ['id', 'region', 'compute_id', 'config_id', 'persistent'] as const;

const attachment = (row: { id: number; region: string; compute_id: number | null; config_id: number | null; persistent: number }): VolumeAttachment => ({
  id: row.id, region: row.region, computeId: row.compute_id, configId: row.config_id, persistent: row.persistent === 1,
});

export const attachments: VolumeAttachments = {
  async find(db, volumeId) {
    const row = await db.selectFrom('volumes').select([...columns]).where('id', '=', volumeId).executeTakeFirst();
    return row && attachment(row);
  },

  async ofInstances(db, computeIds) {
    if (!computeIds.length) return [];
    const rows = await db.selectFrom('volumes').select([...columns]).where('compute_id', 'in', computeIds).orderBy('id').execute();
    return rows.map(attachment);
  },

  async count(db, computeId, persistent) {
    const row = await db.selectFrom('volumes').select((eb) => eb.fn.countAll().as('n'))
      .where('compute_id', '=', computeId).where('persistent', '=', persistent ? 1 : 0).executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  idsOnInstance: (db, computeId) => db.selectFrom('volumes').select('id').where('compute_id', '=', computeId).orderBy('id'),

  async attach(trx, volumeIds, { computeId, configId, now }) {
    if (!volumeIds.length) return;
    await trx.updateTable('volumes').set({ compute_id: computeId, config_id: configId, persistent: 1, updated: now }).where('id', 'in', volumeIds)
      .where((eb) => eb.or([eb('compute_id', 'is', null), eb.and([eb('compute_id', '=', computeId), eb('persistent', '=', 0)])])).execute();
  },

  async leaveProfiles(trx, of) {
    const update = trx.updateTable('volumes').set({ config_id: null });
    await ('configId' in of ? update.where('config_id', '=', of.configId) : update.where('compute_id', '=', of.computeId)).execute();
  },

  async detachAll(trx, computeId) {
    await trx.updateTable('volumes').set({ compute_id: null, config_id: null, persistent: 1 }).where('compute_id', '=', computeId).execute();
  },

  async detachTransient(trx, computeId, now) {
    await trx.updateTable('volumes').set({ compute_id: null, config_id: null, persistent: 1, updated: now })
      .where('compute_id', '=', computeId).where('persistent', '=', 0).execute();
  },
};
