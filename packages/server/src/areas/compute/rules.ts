// Checks shared by several Compute operations: the region and type of an instance, its
// interfaces, the devices of a profile or a rescue, and state changes that need no running or
// queued action.
import type { components } from '@cloudapi/types';
import type { HandlerContext } from '../../core/area.js';
import { inState, settle } from '../../core/clock.js';
import type { StateColumns } from '../../core/clock.js';
import { badRequest } from '../../core/errors.js';
import { forUpdate } from '../../core/store/kind.js';
import type { Db, Trx } from '../../core/store/db.js';
import { COMPUTE_CAPABILITY, instanceType, MAX_VLANS_PER_REGION, PARAVIRT_ONLY_SLOTS, SLOTS, STEADY, VLAN_CAPABILITY } from './model.js';
import type { InstanceType, Slot } from './model.js';
import { instanceOrNotFound, json } from './store.js';
import type { InstanceRow, InstanceStatus, StoredDevices } from './store.js';
import { detachTransient } from './volumes.js';

type InterfaceInput = components['schemas']['ComputeInterfaceInput'];
type DeviceInput = components['schemas']['ComputeDeviceInput'] | null;

export function requireRegion(ctx: Pick<HandlerContext, 'catalogue'>, id: string, field = 'region'): void {
  const region = ctx.catalogue.region(id);
  if (!region) throw badRequest(`Region ${id} does not exist`, field);
  if (!region.capabilities.includes(COMPUTE_CAPABILITY)) throw badRequest(`Region ${id} does not offer ${COMPUTE_CAPABILITY}`, field);
}

export function requireType(id: string, field = 'type'): InstanceType {
  const type = instanceType(id);
  if (!type) throw badRequest(`Instance type ${id} does not exist`, field);
  return type;
}

/**
 * Interfaces as stored: labels and addresses unique among them, VLANs only where the region has
 * them. The schema already holds "at most three, at most one public".
 */
export function checkInterfaces(ctx: Pick<HandlerContext, 'catalogue'>, interfaces: readonly InterfaceInput[], region: string, field = 'interfaces'): object[] {
  const labels = new Set<string>();
  const addresses = new Set<string>();
  return interfaces.map((entry, i) => {
    if (entry.purpose === 'public') return { purpose: 'public', label: null, ipam_address: null };
    if (!ctx.catalogue.region(region)?.capabilities.includes(VLAN_CAPABILITY)) throw badRequest(`Region ${region} has no VLANs`, `${field}.${i}.purpose`);
    if (labels.has(entry.label)) throw badRequest(`VLAN ${entry.label} is named twice; labels are unique among an instance's interfaces`, `${field}.${i}.label`);
    labels.add(entry.label);
    const address = entry.ipam_address ?? '';
    if (address && addresses.has(address)) throw badRequest(`Address ${address} is given twice; addresses are unique among an instance's interfaces`, `${field}.${i}.ipam_address`);
    if (address) addresses.add(address);
    return { purpose: 'vlan', label: entry.label, ipam_address: address };
  });
}

/**
 * At most ten VLANs per region: a label not yet used by a profile of an instance in the region
 * makes a new VLAN. Only profiles naming a VLAN are read, with the region's lock row held
 * (PostgreSQL; SQLite has one writer) until the profile is written, so that two requests adding
 * VLANs at once are counted one after the other.
 */
export async function requireVlanRoom(trx: Trx, region: string, interfaces: readonly object[], field = 'interfaces'): Promise<void> {
  const wanted = (interfaces as { purpose: string; label: string }[]).map((i, index) => ({ ...i, index })).filter((i) => i.purpose === 'vlan');
  if (!wanted.length) return;
  await trx.insertInto('compute_region_locks').values({ region }).onConflict((oc) => oc.column('region').doNothing()).execute();
  await forUpdate(trx, trx.selectFrom('compute_region_locks').select('region').where('region', '=', region)).executeTakeFirst();
  const rows = await trx.selectFrom('compute_configs').innerJoin('compute_instances', 'compute_instances.id', 'compute_configs.compute_id')
    .select('compute_configs.interfaces').where('compute_instances.region', '=', region).where('compute_configs.interfaces', 'like', '%"vlan"%').execute();
  const existing = new Set(rows.flatMap((r) => json<{ purpose: string; label: string }[]>(r.interfaces).filter((i) => i.purpose === 'vlan').map((i) => i.label)));
  for (const entry of wanted) {
    if (existing.has(entry.label)) continue;
    if (existing.size >= MAX_VLANS_PER_REGION) throw badRequest(`Region ${region} already has ${MAX_VLANS_PER_REGION} VLANs, the most a region can have; use one of them`, field === 'interfaces' ? `${field}.${entry.index}.label` : field);
    existing.add(entry.label);
  }
}

/**
 * Devices of a profile or a rescue: each disk one of the instance's, each volume in its region
 * and attached to no other instance; slots `sde`..`sdh` not under `fullvirt`. Answers the slots
 * in use, and the volumes to attach to the instance.
 */
export async function checkDevices(db: Db | Trx, instance: InstanceRow, devices: Record<string, DeviceInput | undefined>, virtMode: string, field = 'devices'): Promise<{ stored: StoredDevices; volumesToAttach: number[] }> {
  const stored: StoredDevices = {};
  const volumesToAttach: number[] = [];
  for (const slot of SLOTS) {
    const device = devices[slot];
    if (!device || (device.disk_id == null && device.volume_id == null)) continue;
    if (virtMode === 'fullvirt' && PARAVIRT_ONLY_SLOTS.includes(slot)) throw badRequest(`Slot ${slot} is unavailable when virt_mode is fullvirt (sde to sdh)`, `${field}.${slot}`);
    if (device.disk_id != null) {
      const disk = await db.selectFrom('compute_disks').select('id').where('id', '=', device.disk_id).where('compute_id', '=', instance.id).executeTakeFirst();
      if (!disk) throw badRequest(`Disk ${device.disk_id} is not a disk of compute instance ${instance.id}`, `${field}.${slot}.disk_id`);
    } else {
      const volume = await db.selectFrom('volumes').select(['id', 'region', 'compute_id', 'persistent']).where('id', '=', device.volume_id!).executeTakeFirst();
      if (!volume) throw badRequest(`Volume ${device.volume_id} does not exist`, `${field}.${slot}.volume_id`);
      if (volume.region !== instance.region) throw badRequest(`Volume ${volume.id} is in ${volume.region}, the instance in ${instance.region}: they must be in the same region`, `${field}.${slot}.volume_id`);
      if (volume.compute_id !== null && volume.compute_id !== instance.id) throw badRequest(`Volume ${volume.id} is attached to another instance`, `${field}.${slot}.volume_id`);
      // Unattached, or attached without persistence: a profile attaches it for good.
      if (volume.compute_id === null || volume.persistent === 0) volumesToAttach.push(volume.id);
    }
    stored[slot as Slot] = { disk_id: device.disk_id ?? null, volume_id: device.disk_id != null ? null : device.volume_id ?? null };
  }
  return { stored, volumesToAttach };
}

export function requireSteady(id: number, status: InstanceStatus, action: string, field?: string): void {
  if (!(STEADY as readonly string[]).includes(status)) {
    throw badRequest(`Compute instance ${id} has a running or queued action (it is ${status}); ${action} needs none`, field);
  }
}

/** Reads an instance under a row lock (PostgreSQL), so that rules counted on it do not race. */
export async function lockInstance(trx: Trx, id: number): Promise<InstanceRow> {
  await forUpdate(trx, trx.selectFrom('compute_instances').select('id').where('id', '=', id)).executeTakeFirst();
  return instanceOrNotFound(trx, id);
}

/**
 * Changes an instance's state as `plan` says from the state it is in (settled on the clock), in
 * one conditional UPDATE under a row lock: of two requests racing, the second sees the first's
 * state. An instance that stops running loses the volumes attached to it without persistence.
 */
export async function changeState(trx: Trx, ctx: Pick<HandlerContext, 'clock'>, id: number, plan: (current: InstanceStatus, row: InstanceRow) => StateColumns<InstanceStatus> | null | Promise<StateColumns<InstanceStatus> | null>): Promise<InstanceRow> {
  const now = ctx.clock.now();
  const row = await lockInstance(trx, id);
  const current = settle(row, now);
  const columns = await plan(current, row);
  if (!columns) return row;
  const result = await trx.updateTable('compute_instances').set({ ...columns, updated: now }).where('id', '=', id).where(inState(current, now)).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw badRequest(`Compute instance ${id} changed state meanwhile; try again`);
  if (current === 'running') await detachTransient(trx, id, now);
  return { ...row, ...columns, updated: now };
}
