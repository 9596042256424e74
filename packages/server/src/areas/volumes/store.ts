// Volume rows: their table type, and how a row becomes the API's Volume.
import type { components } from '@cloudapi/types';
import type { Generated, Selectable } from 'kysely';
import type { Clock, StateColumns } from '../../core/clock.js';
import { settle, timestamp } from '../../core/clock.js';
import type { Services } from '../../core/services.js';
import type { Db, Trx } from '../../core/store/db.js';
import { prepared } from '../../core/store/prepared.js';
import type { TimestampColumns } from '../../core/store/schema.js';
import { tagLabels, tagsColumn, tagsOf } from '../../core/tagging.js';

export type Volume = components['schemas']['Volume'];
export type VolumeStatus = Volume['status'];

export interface VolumeTable extends StateColumns<VolumeStatus>, TimestampColumns {
  id: Generated<number>;
  label: string;
  size: number;
  region: string;
  compute_id: number | null;
  config_id: number | null;
  /** 1, or 0 when attached with `persist_across_boots` false. */
  persistent: Generated<number>;
}

declare module '../../core/store/schema.js' {
  interface Database {
    volumes: VolumeTable;
  }
}

/** A row, with its tags when read through `selectVolumes` (lists read them per page instead). */
export type VolumeRow = Selectable<VolumeTable> & { tags?: string | null };

export const VOLUME_KIND = 'volume';

/** The block device path inside an attached instance, named after the label. */
export const filesystemPath = (label: string) => `/dev/disk/by-id/scsi-0Cloud_Volume_${label}`;

/** Volumes with their tags, for reads of a few volumes. */
export function selectVolumes(db: Db | Trx) {
  return db.selectFrom('volumes').selectAll('volumes').select(tagsColumn(db, VOLUME_KIND, 'volumes.id'));
}

/**
 * Rows as the API shows them. Tags come with the rows, or (rows of a list page, read without
 * them) in one query for the page; the labels of their instances in one call.
 */
export async function toVolumes(db: Db | Trx, rows: VolumeRow[], deps: { clock: Clock; services: Services }): Promise<Volume[]> {
  const now = deps.clock.now();
  const computeIds = [...new Set(rows.map((r) => r.compute_id).filter((id): id is number => id !== null))];
  const labels = computeIds.length ? await deps.services.computes.labels(db, computeIds) : new Map<number, string>();
  const missingTags = rows.filter((r) => r.tags === undefined).map((r) => r.id);
  const pageTags = missingTags.length ? await tagsOf(db, VOLUME_KIND, missingTags) : new Map<number, string[]>();
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    status: settle(row, now),
    size: row.size,
    region: row.region,
    compute_id: row.compute_id,
    compute_label: row.compute_id === null ? null : labels.get(row.compute_id) ?? null,
    filesystem_path: filesystemPath(row.label),
    created: timestamp(row.created),
    updated: timestamp(row.updated),
    tags: row.tags === undefined ? pageTags.get(row.id) ?? [] : tagLabels(row.tags),
  }));
}

const volumeById = prepared((db, id: number) => selectVolumes(db).where('volumes.id', '=', id));

export async function findVolume(db: Db | Trx, id: number): Promise<VolumeRow | undefined> {
  return (await volumeById(db, id))[0];
}
