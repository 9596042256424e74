// Services one area offers others, so that areas meet only through these interfaces and never
// name another area's tables: the kinds of objects tags can go on, what Compute knows about
// instances (Volumes, Images and Managed ask), the volumes attached to instances (Compute asks
// Volumes), private images (Compute deploys them) and managed issues (Support opens them). A
// server started without the owning area gets the `no…` stand-in below: nothing exists there.
import type { SelectQueryBuilder } from 'kysely';
import type { Clock } from './clock.js';
import type { Db, Trx } from './store/db.js';

/** A kind of object that tags can be put on (`TaggedObject.type`), owned by one area. */
export interface TaggableKind {
  /** `TaggedObject.type`: `volume`, `domain`, `compute`, `balancer`. */
  type: string;
  /** The `TagCreateRequest` field that lists ids of this kind: `volumes`, `domains`, ... */
  field: string;
  /** The entity of object permissions (`<entity>:read_write`). */
  entity: string;
  /** Which of `ids` exist. */
  existing(db: Db | Trx, ids: number[]): Promise<Set<number>>;
  /** The objects as the API shows them (the `data` of a tagged object), by id. */
  load(db: Db | Trx, ids: number[], ctx: { clock: Clock; services: Services }): Promise<Map<number, unknown>>;
}

export interface InstanceSummary {
  id: number;
  label: string;
  region: string;
  /** Display group (deprecated on instances, still shown by Managed compute settings). */
  group: string;
  /** The instance's public IPv4 addresses, first the primary one. */
  ipv4: string[];
}

/** What Compute knows that other areas ask (areas/compute/directory.ts). */
export interface ComputeDirectory {
  instance(db: Db | Trx, id: number): Promise<InstanceSummary | undefined>;
  /** A page of instances in id order and how many there are (Managed compute settings list one entry per instance). */
  page(db: Db | Trx, offset: number, limit: number): Promise<{ items: InstanceSummary[]; total: number }>;
  /** Labels of instances by id (a volume shows its instance's label). */
  labels(db: Db | Trx, ids: number[]): Promise<Map<number, string>>;
  /**
   * Where a volume attached to an instance goes, within the instance's limits: with
   * `persistent`, the config `configId` when given and the instance's, else the only config,
   * else the last booted one (at most eight volumes); without, no config, a running instance and
   * one volume per GB of its RAM. `{error}` when it cannot go there. Locks the instance's row:
   * call it in the transaction that attaches the volume.
   */
  placeVolume(trx: Trx, instanceId: number, placement: { configId?: number; persistent: boolean; now: number }): Promise<{ configId: number | null } | { error: string; field?: string }>;
  /** A disk of an instance, for capturing an image from it. */
  disk(db: Db | Trx, diskId: number): Promise<{ id: number; label: string; size: number; computeId: number } | undefined>;
}

/** A volume as an instance sees it: where it is and what it is attached to. */
export interface VolumeAttachment {
  id: number;
  region: string;
  computeId: number | null;
  configId: number | null;
  /** False when attached with `persist_across_boots` false. */
  persistent: boolean;
}

/** The volumes attached to instances (areas/volumes/attachments.ts): Compute's profiles and limits use them. */
export interface VolumeAttachments {
  find(db: Db | Trx, volumeId: number): Promise<VolumeAttachment | undefined>;
  /** The volumes attached to these instances, in id order. */
  ofInstances(db: Db | Trx, computeIds: number[]): Promise<VolumeAttachment[]>;
  /** How many volumes are attached to the instance, with or without persistence. */
  count(db: Db | Trx, computeId: number, persistent: boolean): Promise<number>;
  /** The ids of the instance's volumes in id order, as a query `paginate` can page through. */
  idsOnInstance(db: Db, computeId: number): SelectQueryBuilder<any, any, { id: number }>;
  /** Attaches the volumes (those unattached or attached to the instance without persistence) to a profile of it, with persistence. */
  attach(trx: Trx, volumeIds: number[], to: { computeId: number; configId: number; now: number }): Promise<void>;
  /** The profile goes (or every profile of the instance): its volumes stay attached, profile-less. */
  leaveProfiles(trx: Trx, of: { configId: number } | { computeId: number }): Promise<void>;
  /** The instance is deleted: its volumes stay, detached. */
  detachAll(trx: Trx, computeId: number): Promise<void>;
  /** The instance stops running: the volumes attached to it without persistence leave. */
  detachTransient(trx: Trx, computeId: number, now: number): Promise<void>;
}

/** A private image as Compute deploys it (areas/images). */
export interface ImageDirectory {
  /** The entity of image permissions (`image:read_only`). */
  entity: string;
  /** A private image by its API id (`private/<n>`), unless it does not exist or its upload window passed. */
  privateImage(db: Db | Trx, imageId: string, now: number): Promise<{ label: string; size: number; status: string } | undefined>;
}

/** Managed issues (areas/managed): a support ticket sent with `managed_issue` opens one. */
export interface ManagedIssues {
  openFromTicket(trx: Trx, ticket: { id: number; summary: string }, now: number): Promise<void>;
}

export interface Services {
  computes: ComputeDirectory;
  volumes: VolumeAttachments;
  images: ImageDirectory;
  managed: ManagedIssues;
  /** Every taggable kind, by `TaggedObject.type`. */
  taggables: Map<string, TaggableKind>;
}

/** Without the Compute area (a server started with some areas only): no instance, config or disk exists. */
export const noComputes: ComputeDirectory = {
  instance: async () => undefined,
  page: async () => ({ items: [], total: 0 }),
  labels: async () => new Map(),
  placeVolume: async () => ({ error: 'The compute instance does not exist' }),
  disk: async () => undefined,
};

/** Without the Volumes area: no volume exists, so none is attached. */
export const noVolumes: VolumeAttachments = {
  find: async () => undefined,
  ofInstances: async () => [],
  count: async () => 0,
  idsOnInstance: () => { throw new Error('The Volumes area is not registered'); },
  attach: async () => {},
  leaveProfiles: async () => {},
  detachAll: async () => {},
  detachTransient: async () => {},
};

/** Without the Images area: no private image exists. */
export const noImages: ImageDirectory = { entity: 'image', privateImage: async () => undefined };

/** Without the Managed area: a ticket opens no managed issue (there is no managed service to have one). */
export const noManagedIssues: ManagedIssues = { openFromTicket: async () => {} };
