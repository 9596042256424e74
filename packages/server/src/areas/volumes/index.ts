// Volumes: block storage volumes, their placement (a region, or an instance's region and config),
// their states on the clock (`creating` → `active`, `resizing` → `active`) and the rules on
// clone, resize, attach and delete.
import { cachedPages, defineArea, defineHandlers } from '../../core/area.js';
import type { HandlerContext } from '../../core/area.js';
import { inState, settle, transition } from '../../core/clock.js';
import { badRequest, notFound } from '../../core/errors.js';
import { forgetObject } from '../../core/permissions.js';
import type { Db, Trx } from '../../core/store/db.js';
import { paginate } from '../../core/store/pagination.js';
import { preparedInsert } from '../../core/store/prepared.js';
import { joinTagLabels, setTags, untagObject } from '../../core/tagging.js';
import { migrations } from './migrations.js';
import { volumeStore, VOLUME_KIND } from './store.js';
import type { Volume, VolumeRow, VolumeStatus } from './store.js';

/** The region capability a volume needs (from the catalogue's regions). */
const BLOCK_STORAGE = 'Block Storage';
/** States in which a job is moving the volume's data: it cannot be deleted then. */
const BUSY_STATES = ['creating', 'resizing'];

async function volumeOrNotFound(ctx: Pick<HandlerContext, 'db'>, id: number, trx?: Trx): Promise<VolumeRow> {
  const row = await volumeStore.find(trx ?? ctx.db, id);
  if (!row) throw notFound(`Volume ${id} does not exist`);
  return row;
}

async function shown(ctx: Pick<HandlerContext, 'clock' | 'services'>, db: Db | Trx, row: VolumeRow): Promise<Volume> {
  const [volume] = await volumeStore.show(db, [row], ctx);
  return volume!;
}

function requireBlockStorageRegion(ctx: Pick<HandlerContext, 'catalogue'>, regionId: string, field: string): void {
  const region = ctx.catalogue.region(regionId);
  if (!region) throw badRequest(`Region ${regionId} does not exist`, field);
  if (!region.capabilities.includes(BLOCK_STORAGE)) throw badRequest(`Region ${regionId} does not offer ${BLOCK_STORAGE}`, field);
}

// Every create and clone runs it: prepared, and the row answered from what was written.
const insertVolumeRow = preparedInsert((db, label: string, size: number, region: string, computeId: number | null, configId: number | null,
  status: VolumeStatus, nextStatus: VolumeStatus | null, transitionAt: number | null, now: number) => db.insertInto('volumes')
  .values({ label, size, region, compute_id: computeId, config_id: configId, status, next_status: nextStatus, transition_at: transitionAt, created: now, updated: now }));

async function insertVolume(trx: Trx, ctx: HandlerContext, values: { label: string; size: number; region: string; compute_id?: number | null; config_id?: number | null }): Promise<VolumeRow> {
  const now = ctx.clock.now();
  const { label, size, region, compute_id = null, config_id = null } = values;
  const state = transition<VolumeStatus>(ctx.clock, 'creating', 'active');
  const id = await insertVolumeRow(trx, label, size, region, compute_id, config_id, state.status, state.next_status, state.transition_at, now);
  await ctx.recordCreator(trx, VOLUME_KIND, id);
  return { id, label, size, region, compute_id, config_id, persistent: 1, ...state, created: now, updated: now, tags: null };
}

/** The config a volume goes to on an instance (null: none), or the 400 saying why it cannot go there. */
async function placeOnInstance(trx: Trx, ctx: HandlerContext, computeId: number, options: { configId?: number; persistent: boolean }): Promise<number | null> {
  const placed = await ctx.services.computes.placeVolume(trx, computeId, { ...options, now: ctx.clock.now() });
  if ('error' in placed) throw badRequest(placed.error, placed.field ?? (options.configId !== undefined ? 'config_id' : 'compute_id'));
  return placed.configId;
}

export default defineArea({
  name: 'volumes',
  tags: ['Volumes'],
  migrations,
  taggables: [volumeStore.taggable],
  handlers: defineHandlers({
    listVolumes: cachedPages(async (ctx) => paginate(ctx.db, volumeStore.list(ctx.db), ctx.query, (rows) => volumeStore.show(ctx.db, rows, ctx))),

    getVolume: async (ctx) => shown(ctx, ctx.db, await volumeOrNotFound(ctx, ctx.params.volumeId)),

    // Placement: in `region`, or attached to an instance (its region, and the config chosen as
    // the requirements say, within the instance's limit). The `add_volumes` grant is checked
    // before this runs.
    createVolume: async (ctx) => {
      const { label, size = 20, region, compute_id: computeId, config_id: configId, tags = [] } = ctx.body;
      const instance = computeId === undefined ? undefined : await ctx.services.computes.instance(ctx.db, computeId);
      if (computeId !== undefined) {
        if (!instance) throw badRequest(`Compute instance ${computeId} does not exist`, 'compute_id');
        if (region !== undefined && region !== instance.region) throw badRequest(`The volume must be in the instance's region, ${instance.region}`, 'region');
      }
      requireBlockStorageRegion(ctx, instance?.region ?? region ?? '', 'region');
      const row = await ctx.write(async (trx) => {
        const placement = { region: instance?.region ?? region ?? '', compute_id: computeId ?? null, config_id: null as number | null };
        if (computeId !== undefined) placement.config_id = await placeOnInstance(trx, ctx, computeId, { configId, persistent: true });
        const created = await insertVolume(trx, ctx, { label, size, ...placement });
        await setTags(trx, VOLUME_KIND, created.id, tags, ctx.clock.now(), { replace: false });
        return { ...created, tags: joinTagLabels(tags) };
      });
      return shown(ctx, ctx.db, row);
    },

    updateVolume: async (ctx) => {
      const { volumeId } = ctx.params;
      const { label, tags } = ctx.body;
      const row = await ctx.write(async (trx) => {
        await volumeOrNotFound(ctx, volumeId, trx);
        await trx.updateTable('volumes').set({ ...(label !== undefined ? { label } : {}), updated: ctx.clock.now() }).where('id', '=', volumeId).execute();
        if (tags !== undefined) await setTags(trx, VOLUME_KIND, volumeId, tags, ctx.clock.now());
        return volumeOrNotFound(ctx, volumeId, trx);
      });
      return shown(ctx, ctx.db, row);
    },

    // Irreversible. Refused while a job moves the volume's data (`creating`, `resizing`): the
    // requirements' "not allowed while migrating".
    deleteVolume: async (ctx) => {
      const { volumeId } = ctx.params;
      await ctx.write(async (trx) => {
        const now = ctx.clock.now();
        const result = await trx.deleteFrom('volumes').where('id', '=', volumeId)
          .where((eb) => eb.not(eb.or(BUSY_STATES.map((s) => inState(s, now))))).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) {
          const row = await volumeOrNotFound(ctx, volumeId, trx);
          throw badRequest(`Volume ${volumeId} cannot be deleted while it is ${settle(row, now)}; try again when it is active`);
        }
        await untagObject(trx, VOLUME_KIND, volumeId);
        await forgetObject(trx, VOLUME_KIND, volumeId);
      });
      return {};
    },

    // Needs read_only on the volume and read_write on the instance, in the same region. Without
    // persistence the volume goes in no config and leaves when the instance stops running.
    attachVolume: async (ctx) => {
      const { volumeId } = ctx.params;
      const { compute_id: computeId, config_id: configId, persist_across_boots: persist = true } = ctx.body;
      const volume = await volumeOrNotFound(ctx, volumeId);
      await ctx.requirePermission(ctx.db, VOLUME_KIND, volumeId, 'read_only');
      const instance = await ctx.services.computes.instance(ctx.db, computeId);
      if (!instance) throw badRequest(`Compute instance ${computeId} does not exist`, 'compute_id');
      await ctx.requirePermission(ctx.db, 'compute', computeId, 'read_write');
      if (instance.region !== volume.region) throw badRequest(`The volume is in ${volume.region} and the instance in ${instance.region}: they must be in the same region`, 'compute_id');
      const alreadyAttached = () => badRequest(`Volume ${volumeId} is already attached to an instance; detach it first`);
      const row = await ctx.write(async (trx) => {
        if ((await volumeOrNotFound(ctx, volumeId, trx)).compute_id !== null) throw alreadyAttached();
        const chosenConfig = await placeOnInstance(trx, ctx, computeId, { configId, persistent: persist });
        // Conditional: of two attaches of this volume at once, one finds it attached.
        const result = await trx.updateTable('volumes').set({ compute_id: computeId, config_id: chosenConfig, persistent: persist ? 1 : 0, updated: ctx.clock.now() })
          .where('id', '=', volumeId).where('compute_id', 'is', null).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw alreadyAttached();
        return volumeOrNotFound(ctx, volumeId, trx);
      });
      return shown(ctx, ctx.db, row);
    },

    detachVolume: async (ctx) => {
      const { volumeId } = ctx.params;
      await ctx.write(async (trx) => {
        await volumeOrNotFound(ctx, volumeId, trx);
        const result = await trx.updateTable('volumes').set({ compute_id: null, config_id: null, persistent: 1, updated: ctx.clock.now() })
          .where('id', '=', volumeId).where('compute_id', 'is not', null).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw badRequest(`Volume ${volumeId} is not attached to an instance`);
      });
      return {};
    },

    // Same size, region and data; only an `active` source. The `add_volumes` grant is checked
    // before this runs.
    cloneVolume: async (ctx) => {
      const { volumeId } = ctx.params;
      const row = await ctx.write(async (trx) => {
        const source = await trx.selectFrom('volumes').select(['size', 'region']).where('id', '=', volumeId).where(inState('active', ctx.clock.now())).executeTakeFirst();
        if (!source) {
          const row = await volumeOrNotFound(ctx, volumeId, trx);
          throw badRequest(`Only active volumes can be cloned; volume ${volumeId} is ${settle(row, ctx.clock.now())}`);
        }
        return insertVolume(trx, ctx, { label: ctx.body.label, size: source.size, region: source.region });
      });
      return shown(ctx, ctx.db, row);
    },

    // Only growth, only from `active`; the volume is `resizing` for the clock's transition time.
    // One conditional UPDATE, so of two concurrent resizes at most one wins the state.
    resizeVolume: async (ctx) => {
      const { volumeId } = ctx.params;
      const { size } = ctx.body;
      const row = await ctx.write(async (trx) => {
        const now = ctx.clock.now();
        const result = await trx.updateTable('volumes')
          .set({ size, ...transition(ctx.clock, 'resizing', 'active'), updated: now })
          .where('id', '=', volumeId).where(inState('active', now)).where('size', '<', size)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) {
          const current = await volumeOrNotFound(ctx, volumeId, trx);
          const status = settle(current, now);
          if (status !== 'active') throw badRequest(`Only active volumes can be resized; volume ${volumeId} is ${status}`);
          throw badRequest(`Volumes only grow: size must be larger than the current ${current.size}`, 'size');
        }
        return volumeOrNotFound(ctx, volumeId, trx);
      });
      return shown(ctx, ctx.db, row);
    },
  }),
});
