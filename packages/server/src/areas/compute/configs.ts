// Configuration profiles: which kernel, devices, interfaces and helpers an instance boots with.
import type { components } from '@cloudapi/types';
import { cachedPages, defineHandlers } from '../../core/area.js';
import type { HandlerContext } from '../../core/area.js';
import { badRequest } from '../../core/errors.js';
import type { Trx } from '../../core/store/db.js';
import { paginate } from '../../core/store/pagination.js';
import { DEFAULT_KERNEL, PARAVIRT_ONLY_SLOTS } from './model.js';
import { checkDevices, checkInterfaces, lockInstance, requireType, requireVlanRoom } from './rules.js';
import { configOrNotFound, instanceOrNotFound, json, toConfigs } from './store.js';
import type { ConfigRow, InstanceRow, StoredDevices } from './store.js';
import { requirePersistentRoom } from './volumes.js';

type Fields = components['schemas']['ComputeConfigFields'];

const DEFAULT_HELPERS = { devtmpfs_automount: false, distro: true, modules_dep: true, network: true, updatedb_disabled: true };

/** A root device this server can mount (`/dev/sda`..`/dev/sdh`); anything else falls back to `/dev/sda`. */
const rootDevice = (value: string | null | undefined) => (value && /^\/dev\/sd[a-h]$/.test(value) ? value : '/dev/sda');

async function shown(db: Trx | HandlerContext['db'], row: ConfigRow) {
  return (await toConfigs(db, [row]))[0]!;
}

/** Checks the fields sent and answers the columns they set (`current` for an update). */
async function columnsOf(ctx: HandlerContext, trx: Trx, instance: InstanceRow, body: Fields, current?: ConfigRow) {
  const kernel = body.kernel ?? current?.kernel ?? DEFAULT_KERNEL;
  if (!ctx.catalogue.kernel(kernel)) throw badRequest(`Kernel ${kernel} does not exist`, 'kernel');
  const virtMode = body.virt_mode ?? current?.virt_mode ?? 'paravirt';
  let devices = current ? json<StoredDevices>(current.devices) : {};
  let volumesToAttach: number[] = [];
  if (body.devices) {
    ({ stored: devices, volumesToAttach } = await checkDevices(trx, instance, body.devices as never, virtMode));
  } else if (virtMode === 'fullvirt') {
    const used = Object.keys(devices).find((slot) => PARAVIRT_ONLY_SLOTS.includes(slot));
    if (used) throw badRequest(`The profile uses ${used}, unavailable when virt_mode is fullvirt (sde to sdh): move it first`, 'virt_mode');
  }
  const interfaces = body.interfaces ? checkInterfaces(ctx, body.interfaces, instance.region) : undefined;
  if (interfaces) await requireVlanRoom(trx, instance.region, interfaces);
  const columns = {
    label: body.label ?? current?.label ?? '',
    devices: JSON.stringify(devices),
    comments: body.comments !== undefined ? body.comments : current?.comments ?? null,
    helpers: JSON.stringify({ ...(current ? json<object>(current.helpers) : DEFAULT_HELPERS), ...Object.fromEntries(Object.entries(body.helpers ?? {}).filter(([, v]) => v != null)) }),
    interfaces: interfaces ? JSON.stringify(interfaces) : current?.interfaces ?? '[]',
    kernel,
    memory_limit: body.memory_limit ?? current?.memory_limit ?? requireType(instance.type).memory,
    root_device: body.root_device !== undefined || !current ? rootDevice(body.root_device) : current.root_device,
    run_level: body.run_level ?? current?.run_level ?? 'default',
    virt_mode: virtMode,
    updated: ctx.clock.now(),
  };
  return { columns, volumesToAttach };
}

/**
 * Volumes placed in a profile's slots are attached to the instance, in that profile, for good
 * (an instance holds at most eight so: its row is locked by the caller).
 */
async function attachVolumes(trx: Trx, computeId: number, configId: number, volumeIds: number[], now: number) {
  if (!volumeIds.length) return;
  await trx.updateTable('volumes').set({ compute_id: computeId, config_id: configId, persistent: 1, updated: now }).where('id', 'in', volumeIds)
    .where((eb) => eb.or([eb('compute_id', 'is', null), eb.and([eb('compute_id', '=', computeId), eb('persistent', '=', 0)])])).execute();
  await requirePersistentRoom(trx, computeId, 'devices');
}

export const configHandlers = defineHandlers({
  listComputeConfigs: cachedPages(async (ctx) => {
    await instanceOrNotFound(ctx.db, ctx.params.computeId);
    return paginate(ctx.db, ctx.db.selectFrom('compute_configs').selectAll().where('compute_id', '=', ctx.params.computeId).orderBy('id'), ctx.query, (rows) => toConfigs(ctx.db, rows));
  }),

  getComputeConfig: async (ctx) => shown(ctx.db, await configOrNotFound(ctx.db, ctx.params.computeId, ctx.params.configId)),

  createComputeConfig: async (ctx) => {
    const { computeId } = ctx.params;
    const row = await ctx.write(async (trx) => {
      const instance = await lockInstance(trx, computeId);
      const { columns, volumesToAttach } = await columnsOf(ctx as never, trx, instance, ctx.body as Fields);
      const created = await trx.insertInto('compute_configs').values({ ...columns, compute_id: computeId, created: columns.updated }).returningAll().executeTakeFirstOrThrow();
      await attachVolumes(trx, computeId, created.id, volumesToAttach, columns.updated);
      return created;
    });
    return shown(ctx.db, row);
  },

  // `devices` and `interfaces`, when sent, replace the current ones whole.
  updateComputeConfig: async (ctx) => {
    const { computeId, configId } = ctx.params;
    const row = await ctx.write(async (trx) => {
      const instance = await lockInstance(trx, computeId);
      const current = await configOrNotFound(trx, computeId, configId);
      const { columns, volumesToAttach } = await columnsOf(ctx as never, trx, instance, (ctx.body ?? {}) as Fields, current);
      await trx.updateTable('compute_configs').set(columns).where('id', '=', configId).execute();
      await attachVolumes(trx, computeId, configId, volumesToAttach, columns.updated);
      return configOrNotFound(trx, computeId, configId);
    });
    return shown(ctx.db, row);
  },

  // Volumes of the profile stay attached to the instance, in no profile.
  deleteComputeConfig: async (ctx) => {
    const { computeId, configId } = ctx.params;
    await ctx.write(async (trx) => {
      await configOrNotFound(trx, computeId, configId);
      await trx.deleteFrom('compute_configs').where('id', '=', configId).execute();
      await trx.updateTable('volumes').set({ config_id: null }).where('config_id', '=', configId).execute();
      await trx.updateTable('compute_instances').set({ last_config_id: null }).where('id', '=', computeId).where('last_config_id', '=', configId).execute();
    });
    return {};
  },
});
