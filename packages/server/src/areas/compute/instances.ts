// Instances: create (image, image and script, backup, empty), read, update, delete, and the
// actions on one instance (boot, shutdown, rescue, resize, clone), its statistics, transfer and
// volumes, and the kernel catalogue.
import type { components } from '@cloudapi/types';
import { cachedPages, defineHandlers } from '../../core/area.js';
import type { HandlerContext } from '../../core/area.js';
import { settle, steady, transition } from '../../core/clock.js';
import type { StateColumns } from '../../core/clock.js';
import { badRequest, notFound } from '../../core/errors.js';
import { forgetObject } from '../../core/permissions.js';
import type { Trx } from '../../core/store/db.js';
import { paginate, paginateList } from '../../core/store/pagination.js';
import { setTags, tagsOf, untagObject } from '../../core/tagging.js';
import { IMAGE_ENTITY, notExpired, rowIdOf } from '../images/store.js';
import { clearContents, save, sizeOf, writeContents } from './contents.js';
import type { Contents } from './contents.js';
import { DEFAULT_KERNEL, DEFAULT_SWAP_MB, MAX_CONCURRENT_CLONES, PASSWORD_MESSAGE, strongEnough, VLAN_CAPABILITY } from './model.js';
import type { InstanceType } from './model.js';
import { changeState, checkDevices, checkInterfaces, lockInstance, requireRegion, requireSteady, requireType, requireVlanRoom } from './rules.js';
import { statsOf, transferOf, transferOfMonth } from './stats.js';
import { COMPUTE_KIND, configsOf, disksOf, findInstance, instanceOrNotFound, instanceStore, json, shownInstance, toInstances } from './store.js';
import type { Alerts, InstanceRow, InstanceStatus } from './store.js';
import { replanFailingBoots, startBoot, startRescue } from './watchdog.js';

type CreateBody = components['schemas']['ComputeInstanceCreateRequest'];

const defaultAlerts = (type: InstanceType): Alerts => ({ cpu: 90 * type.vcpus, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 });

/** A new instance row; its label defaults to `compute-<id>`. */
async function insertInstance(trx: Trx, ctx: HandlerContext, values: { label?: string; region: string; type: InstanceType; image: string | null; group?: string; privateIp?: boolean; backups?: boolean; state: StateColumns<InstanceStatus> }): Promise<number> {
  const now = ctx.clock.now();
  const { id } = await trx.insertInto('compute_instances').values({
    label: values.label ?? 'compute-new', region: values.region, type: values.type.id, image: values.image, group_name: values.group ?? '',
    private_ip: values.privateIp ? 1 : 0, backups_enabled: values.backups ? 1 : 0, backup_day: 'Scheduling', backup_window: 'Scheduling',
    watchdog_enabled: 1, alerts: JSON.stringify(defaultAlerts(values.type)), last_config_id: null, ...values.state, created: now, updated: now,
  }).returning('id').executeTakeFirstOrThrow();
  if (values.label === undefined) await trx.updateTable('compute_instances').set({ label: `compute-${id}` }).where('id', '=', id).execute();
  await ctx.recordCreator(trx, COMPUTE_KIND, id);
  return id;
}

/** The image to deploy: public from the catalogue, or a private one the user may read, `available`. */
async function deployableImage(ctx: HandlerContext, imageId: string): Promise<{ label: string; size: number }> {
  const publicImage = ctx.catalogue.image(imageId);
  if (publicImage) return { label: publicImage.label, size: publicImage.size };
  const rowId = rowIdOf(imageId);
  const row = rowId === undefined ? undefined
    : await ctx.db.selectFrom('images').selectAll().where('id', '=', rowId).where(notExpired(ctx.clock.now())).executeTakeFirst();
  if (!row) throw badRequest(`Image ${imageId} does not exist`, 'image');
  await ctx.requirePermission(ctx.db, IMAGE_ENTITY, imageId, 'read_only');
  const status = settle(row, ctx.clock.now());
  if (status !== 'available') throw badRequest(`Image ${imageId} is ${status}; only available images can be deployed`, 'image');
  return { label: row.label, size: row.size };
}

/** The disks and default profile of an image deploy: the image's disk and a swap disk. */
function imageContents(image: { label: string }, type: InstanceType, swap: number, interfaces: object[]): Contents {
  const disks = [{ label: `${image.label} Disk`.slice(0, 48), size: type.disk - swap, filesystem: 'ext4' }];
  if (swap > 0) disks.push({ label: `${swap} MB Swap Image`, size: swap, filesystem: 'swap' });
  return {
    disks,
    configs: [{
      diskSlots: swap > 0 ? { sda: 0, sdb: 1 } : { sda: 0 },
      fields: {
        label: `My ${image.label} Profile`.slice(0, 48), devices: '{}', comments: null,
        helpers: JSON.stringify({ devtmpfs_automount: false, distro: true, modules_dep: true, network: true, updatedb_disabled: true }),
        interfaces: JSON.stringify(interfaces), kernel: DEFAULT_KERNEL, memory_limit: type.memory, root_device: '/dev/sda', run_level: 'default', virt_mode: 'paravirt',
      },
    }],
  };
}

/** How a deploy ends: running once provisioned, or offline when not booted. */
const provisioned = (ctx: HandlerContext, booted: boolean) => transition(ctx.clock, 'provisioning', booted ? 'running' : 'offline');

async function createInstance(ctx: HandlerContext<'createComputeInstance'>) {
  const body = ctx.body as Exclude<CreateBody, null>;
  const { region, label, image, root_pass: rootPass, backup_id: backupId, booted, group, private_ip: privateIp, backups_enabled: backups, tags } = body;
  // The user's status first, then the account grant: a restricted user sending tags hears why.
  if (tags !== undefined && tags !== null) ctx.requireGrant('unrestricted_user');
  ctx.requireGrant('add_computes');
  requireRegion(ctx, region);
  const type = requireType(body.type);
  const interfaces = checkInterfaces(ctx, body.interfaces ?? [], region);
  let contents: Contents = { disks: [], configs: [] };
  let state: StateColumns<InstanceStatus> = steady('offline');
  let boots = false;
  if (typeof image === 'string') {
    // The strength check comes first: it needs nothing but the body.
    if (!rootPass || !strongEnough(rootPass)) throw badRequest(PASSWORD_MESSAGE, 'root_pass');
    const deployed = await deployableImage(ctx, image);
    const swap = body.swap_size ?? DEFAULT_SWAP_MB;
    if (deployed.size + swap > type.disk) throw badRequest(`Type ${type.id} has ${type.disk} MB of disk; the image needs ${deployed.size} MB and the swap ${swap} MB`, 'type');
    contents = imageContents(deployed, type, swap, interfaces);
    boots = booted ?? true;
    state = provisioned(ctx, boots);
  } else if (typeof backupId === 'number') {
    const backup = await ctx.db.selectFrom('compute_backups').selectAll().where('id', '=', backupId).executeTakeFirst();
    if (!backup) throw badRequest(`Backup ${backupId} does not exist`, 'backup_id');
    await ctx.requirePermission(ctx.db, COMPUTE_KIND, backup.compute_id, 'read_write');
    const status = settle(backup, ctx.clock.now());
    if (status !== 'successful') throw badRequest(`Backup ${backupId} is ${status}; only successful backups can be deployed`, 'backup_id');
    if (backup.region !== region) throw badRequest(`Backup ${backupId} is in ${backup.region}; the instance must be in the same region`, 'region');
    contents = { disks: json(backup.disks), configs: json(backup.configs) };
    if (sizeOf(contents.disks) > type.disk) throw badRequest(`Type ${type.id} has ${type.disk} MB of disk; backup ${backupId} needs ${sizeOf(contents.disks)} MB`, 'type');
    boots = booted ?? true;
    state = provisioned(ctx, boots);
  }
  const row = await ctx.write(async (trx) => {
    // The profiles' VLANs (an image deploy's interfaces, a backup's profiles) count in the region.
    await requireVlanRoom(trx, region, interfacesOf(contents), typeof image === 'string' ? 'interfaces' : 'backup_id');
    const id = await insertInstance(trx, ctx, { label: label ?? undefined, region, type, image: typeof image === 'string' ? image : null, group: group ?? undefined, privateIp: privateIp ?? false, backups: backups ?? false, state });
    const configIds = await writeContents(trx, ctx.clock, id, contents);
    if (boots && configIds.length) await trx.updateTable('compute_instances').set({ last_config_id: configIds[0]! }).where('id', '=', id).execute();
    if (tags) await setTags(trx, COMPUTE_KIND, id, tags, ctx.clock.now(), { replace: false });
    return instanceOrNotFound(trx, id);
  });
  return shownInstance(ctx.db, row, ctx.clock);
}

/** Everything an instance owns goes with it; its volumes stay, detached. */
async function deleteInstance(trx: Trx, id: number): Promise<void> {
  await clearContents(trx, id);
  await trx.deleteFrom('compute_backups').where('compute_id', '=', id).execute();
  await trx.deleteFrom('compute_clone_jobs').where('source_id', '=', id).execute();
  await trx.deleteFrom('compute_boot_jobs').where('compute_id', '=', id).execute();
  await trx.updateTable('volumes').set({ compute_id: null, config_id: null, persistent: 1 }).where('compute_id', '=', id).execute();
  await untagObject(trx, COMPUTE_KIND, id);
  await forgetObject(trx, COMPUTE_KIND, id);
  await trx.deleteFrom('compute_instances').where('id', '=', id).execute();
}

/** What a clone copies: the profiles chosen (all when absent) with their disks, and the extra disks. */
async function cloneSelection(trx: Trx, sourceId: number, configIds: number[] | undefined, diskIds: number[] | undefined): Promise<Contents> {
  const configs = await configsOf(trx, sourceId);
  const disks = await disksOf(trx, sourceId);
  (configIds ?? []).forEach((id, i) => { if (!configs.some((c) => c.id === id)) throw badRequest(`Config ${id} is not a config of compute instance ${sourceId}`, `configs.${i}`); });
  (diskIds ?? []).forEach((id, i) => { if (!disks.some((d) => d.id === id)) throw badRequest(`Disk ${id} is not a disk of compute instance ${sourceId}`, `disks.${i}`); });
  const chosen = configIds === undefined ? configs : configs.filter((c) => configIds.includes(c.id));
  const wanted = new Set(diskIds ?? []);
  for (const config of chosen) for (const device of Object.values(json<Record<string, { disk_id: number | null }>>(config.devices))) if (device?.disk_id != null) wanted.add(device.disk_id);
  return save(chosen, disks.filter((d) => wanted.has(d.id)));
}

/** The interfaces of every profile of saved contents, in order. */
const interfacesOf = (contents: Contents) => contents.configs.flatMap((c) => json<object[]>(c.fields.interfaces));

const freeDisk = async (trx: Trx, row: InstanceRow) => requireType(row.type).disk - sizeOf(await disksOf(trx, row.id));

export const instanceHandlers = defineHandlers({
  listComputeInstances: cachedPages(async (ctx) => paginate(ctx.db, instanceStore.list(ctx.db), ctx.query, (rows) => toInstances(rows, ctx.clock))),

  getComputeInstance: async (ctx) => shownInstance(ctx.db, await instanceOrNotFound(ctx.db, ctx.params.computeId), ctx.clock),

  // `add_computes` always and `unrestricted_user` when tags are sent, both checked by the handler.
  createComputeInstance: { conditionalGrants: ['unrestricted_user', 'add_computes'], handle: (ctx) => createInstance(ctx as never) },

  updateComputeInstance: {
    conditionalGrants: ['unrestricted_user'],
    handle: async (ctx) => {
      const { computeId } = ctx.params;
      const { alerts, backups, group, label, tags, watchdog_enabled: watchdog } = ctx.body ?? {};
      if (tags != null) ctx.requireGrant('unrestricted_user');
      const row = await ctx.write(async (trx) => {
        const current = await lockInstance(trx, computeId);
        // The watchdog turned on or off acts on boots failing now.
        if (watchdog != null && (watchdog ? 1 : 0) !== current.watchdog_enabled) await replanFailingBoots(trx, current, watchdog, ctx.clock.now());
        const schedule = backups?.schedule;
        await trx.updateTable('compute_instances').set({
          ...(label != null ? { label } : {}),
          ...(group != null ? { group_name: group } : {}),
          ...(watchdog != null ? { watchdog_enabled: watchdog ? 1 : 0 } : {}),
          ...(alerts ? { alerts: JSON.stringify({ ...json<Alerts>(current.alerts), ...Object.fromEntries(Object.entries(alerts).filter(([, v]) => v != null)) }) } : {}),
          ...(schedule?.day !== undefined ? { backup_day: schedule.day ?? 'Scheduling' } : {}),
          ...(schedule?.window !== undefined ? { backup_window: schedule.window ?? 'Scheduling' } : {}),
          updated: ctx.clock.now(),
        }).where('id', '=', computeId).execute();
        if (tags != null) await setTags(trx, COMPUTE_KIND, computeId, tags, ctx.clock.now());
        return instanceOrNotFound(trx, computeId);
      });
      return shownInstance(ctx.db, row, ctx.clock);
    },
  },

  // Irreversible: disks, profiles, backups and addresses go with the instance.
  deleteComputeInstance: async (ctx) => {
    await ctx.write(async (trx) => {
      await instanceOrNotFound(trx, ctx.params.computeId);
      await deleteInstance(trx, ctx.params.computeId);
    });
    return {};
  },

  // The profile: the one given, else the only one, else the last booted; several and none last
  // booted is a 400. Offline boots (`booting`), running reboots (`rebooting`); both end running,
  // or offline when the profile's root device holds nothing (after the watchdog's boots, if it
  // is enabled: watchdog.ts).
  bootComputeInstance: async (ctx) => {
    const { computeId } = ctx.params;
    const configId = ctx.body?.config_id ?? undefined;
    await ctx.write(async (trx) => {
      const instance = await instanceOrNotFound(trx, computeId);
      const configs = await configsOf(trx, computeId);
      let chosen: number;
      if (configId !== undefined) {
        if (!configs.some((c) => c.id === configId)) throw badRequest(`Config ${configId} is not a config of compute instance ${computeId}`, 'config_id');
        chosen = configId;
      } else if (configs.length === 1) {
        chosen = configs[0]!.id;
      } else if (configs.length === 0) {
        throw badRequest(`Compute instance ${computeId} has no config to boot; create one first`, 'config_id');
      } else if (instance.last_config_id !== null && configs.some((c) => c.id === instance.last_config_id)) {
        chosen = instance.last_config_id;
      } else {
        throw badRequest(`Compute instance ${computeId} has several configs and none was last booted: give config_id`, 'config_id');
      }
      await changeState(trx, ctx, computeId, (current, row) => {
        requireSteady(computeId, current, 'booting');
        return startBoot(trx, ctx.clock, row, current, configs.find((c) => c.id === chosen)!);
      });
      await trx.updateTable('compute_instances').set({ last_config_id: chosen }).where('id', '=', computeId).execute();
    });
    return {};
  },

  // Needs no running or queued action; an instance already offline stays so.
  shutDownComputeInstance: async (ctx) => {
    await ctx.write((trx) => changeState(trx, ctx, ctx.params.computeId, (current) => {
      requireSteady(ctx.params.computeId, current, 'a shutdown');
      return current === 'offline' ? null : transition(ctx.clock, 'shutting_down', 'offline');
    }));
    return {};
  },

  // A boot into the rescue system with the devices given (`sdh` is reserved: the schema allows
  // `sda`..`sdg`); under a `fullvirt` profile `sde`..`sdg` are unavailable too.
  rescueComputeInstance: async (ctx) => {
    const { computeId } = ctx.params;
    await ctx.write(async (trx) => {
      const instance = await instanceOrNotFound(trx, computeId);
      const configs = await configsOf(trx, computeId);
      const profile = configs.find((c) => c.id === instance.last_config_id) ?? configs[0];
      // Volumes of the region attached nowhere are lent to the rescue system, not attached.
      await checkDevices(trx, instance, (ctx.body?.devices ?? {}) as never, profile?.virt_mode ?? 'paravirt');
      await changeState(trx, ctx, computeId, (current) => {
        requireSteady(computeId, current, 'a rescue boot');
        return startRescue(trx, ctx.clock, computeId, current);
      });
    });
    return {};
  },

  // Needs no running or queued action and no pending migration (both: a steady state), and
  // disks that fit the new type. With allow_auto_disk_resize a growing type grows the single
  // data disk into the new space. The instance is `migrating`, then back to its state.
  resizeComputeInstance: async (ctx) => {
    const { computeId } = ctx.params;
    const { allow_auto_disk_resize: autoResize = true } = ctx.body;
    const type = requireType(ctx.body.type);
    await ctx.write(async (trx) => {
      const before = await changeState(trx, ctx, computeId, (current, row) => {
        if (current === 'migrating') throw badRequest(`Compute instance ${computeId} has a pending migration`);
        requireSteady(computeId, current, 'a resize');
        if (row.type === type.id) throw badRequest(`Compute instance ${computeId} is already of type ${type.id}`, 'type');
        return transition(ctx.clock, 'migrating', current);
      });
      const disks = await disksOf(trx, computeId);
      const allocated = sizeOf(disks);
      if (allocated > type.disk) throw badRequest(`The disks take ${allocated} MB; type ${type.id} allows ${type.disk} MB: shrink or delete disks first`, 'type');
      const dataDisks = disks.filter((d) => d.filesystem !== 'swap');
      const oldDisk = requireType(before.type).disk;
      if (autoResize && type.disk > oldDisk && dataDisks.length === 1) {
        await trx.updateTable('compute_disks').set({ size: dataDisks[0]!.size + type.disk - allocated }).where('id', '=', dataDisks[0]!.id).execute();
      }
      await trx.updateTable('compute_instances').set({ type: type.id, alerts: JSON.stringify({ ...json<Alerts>(before.alerts), cpu: 90 * type.vcpus }) }).where('id', '=', computeId).execute();
    });
    return {};
  },

  // Into a new instance (`region`, `type`) or onto an existing one (`compute_id`). At most five
  // clones of one source at once: the source row is locked while its running clone jobs are
  // counted, so concurrent requests are counted one after the other.
  cloneComputeInstance: async (ctx) => {
    const { computeId } = ctx.params;
    const body = ctx.body as { configs?: number[]; disks?: number[]; group?: string; region?: string; type?: string; label?: string; backups_enabled?: boolean; private_ip?: boolean; compute_id?: number };
    const row = await ctx.write(async (trx) => {
      const source = await lockInstance(trx, computeId);
      const now = ctx.clock.now();
      const running = await trx.selectFrom('compute_clone_jobs').select((eb) => eb.fn.countAll().as('n')).where('source_id', '=', computeId).where('finishes_at', '>', now).executeTakeFirst();
      if (Number(running?.n ?? 0) >= MAX_CONCURRENT_CLONES) throw badRequest(`Compute instance ${computeId} already has ${MAX_CONCURRENT_CLONES} clones in progress; at most ${MAX_CONCURRENT_CLONES} run at once`);
      const contents = await cloneSelection(trx, computeId, body.configs, body.disks);
      const sourceTags = (await tagsOf(trx, COMPUTE_KIND, [computeId])).get(computeId) ?? [];
      let targetId: number;
      if (body.compute_id !== undefined) {
        targetId = body.compute_id;
        if (targetId === computeId) throw badRequest('An instance cannot be cloned onto itself', 'compute_id');
        const target = await findInstance(trx, targetId);
        if (!target) throw badRequest(`Compute instance ${targetId} does not exist`, 'compute_id');
        await ctx.requirePermission(trx, COMPUTE_KIND, targetId, 'read_write');
        if (target.region !== source.region) throw badRequest(`Compute instance ${targetId} is in ${target.region}, the source in ${source.region}`, 'compute_id');
        if (await freeDisk(trx, target) < sizeOf(contents.disks)) throw badRequest(`Compute instance ${targetId} lacks the disk space for the clone (${sizeOf(contents.disks)} MB)`, 'compute_id');
        await changeState(trx, ctx, targetId, (current) => {
          requireSteady(targetId, current, 'a clone onto it', 'compute_id');
          return transition(ctx.clock, 'cloning', current);
        });
        if (body.group !== undefined) await trx.updateTable('compute_instances').set({ group_name: body.group }).where('id', '=', targetId).execute();
        if (sourceTags.length) {
          const targetTags = (await tagsOf(trx, COMPUTE_KIND, [targetId])).get(targetId) ?? [];
          await setTags(trx, COMPUTE_KIND, targetId, [...new Set([...targetTags, ...sourceTags])], now);
        }
      } else {
        requireRegion(ctx, body.region!);
        // A profile with a VLAN interface cannot move to a region without VLANs: the clone does not start.
        const vlan = contents.configs.find((c) => json<{ purpose: string }[]>(c.fields.interfaces).some((i) => i.purpose === 'vlan'));
        if (vlan && !ctx.catalogue.region(body.region!)!.capabilities.includes(VLAN_CAPABILITY)) throw badRequest(`Config ${vlan.fields.label} has a VLAN interface and region ${body.region} has no VLANs`, 'region');
        await requireVlanRoom(trx, body.region!, interfacesOf(contents), 'region');
        const type = requireType(body.type!);
        if (sizeOf(contents.disks) > type.disk) throw badRequest(`Type ${type.id} has ${type.disk} MB of disk; the clone needs ${sizeOf(contents.disks)} MB`, 'type');
        targetId = await insertInstance(trx, ctx, {
          label: body.label ?? 'compute', region: body.region!, type, image: source.image, group: body.group ?? source.group_name,
          privateIp: body.private_ip ?? false, backups: body.backups_enabled ?? false, state: transition(ctx.clock, 'provisioning', 'offline'),
        });
        await setTags(trx, COMPUTE_KIND, targetId, sourceTags, now, { replace: false });
      }
      await writeContents(trx, ctx.clock, targetId, contents);
      await trx.insertInto('compute_clone_jobs').values({ source_id: computeId, target_id: targetId, finishes_at: now + ctx.clock.transitionMs }).execute();
      return instanceOrNotFound(trx, targetId);
    });
    return shownInstance(ctx.db, row, ctx.clock);
  },

  getComputeStats: async (ctx) => statsOf(await instanceOrNotFound(ctx.db, ctx.params.computeId), ctx.clock.now()),

  getComputeStatsByMonth: async (ctx) => statsOf(await instanceOrNotFound(ctx.db, ctx.params.computeId), ctx.clock.now(), ctx.params),

  getComputeTransfer: async (ctx) => transferOf(await instanceOrNotFound(ctx.db, ctx.params.computeId)),

  getComputeTransferByMonth: async (ctx) => {
    await instanceOrNotFound(ctx.db, ctx.params.computeId);
    return transferOfMonth(ctx.clock.now(), ctx.params);
  },

  // The volumes attached to the instance, shown as the Volumes area shows them.
  listComputeVolumes: async (ctx) => {
    const { computeId } = ctx.params;
    await instanceOrNotFound(ctx.db, computeId);
    const volumes = ctx.services.taggables.get('volume');
    if (!volumes) throw new Error('The Volumes area is not registered');
    return paginate(ctx.db, ctx.db.selectFrom('volumes').select('id').where('compute_id', '=', computeId).orderBy('id'), ctx.query, async (rows) => {
      const loaded = await volumes.load(ctx.db, rows.map((r) => r.id), ctx);
      return rows.map((r) => loaded.get(r.id)) as never[];
    });
  },

  listComputeKernels: async (ctx) => paginateList(ctx.catalogue.kernels, ctx.query),

  getComputeKernel: async (ctx) => {
    const kernel = ctx.catalogue.kernel(ctx.params.kernelId);
    if (!kernel) throw notFound(`Kernel ${ctx.params.kernelId} does not exist`);
    return kernel;
  },
});

