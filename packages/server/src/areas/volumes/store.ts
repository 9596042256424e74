// Volume rows: their table type, and how a row becomes the API's Volume.
import type { components } from '@cloudapi/types';
import type { Generated, Selectable } from 'kysely';
import type { StateColumns } from '../../core/clock.js';
import { settle, timestamp } from '../../core/clock.js';
import type { Db, Trx } from '../../core/store/db.js';
import type { TimestampColumns } from '../../core/store/schema.js';
import { taggableStore } from '../../core/taggable-store.js';
import type { ShowDeps, WithTags } from '../../core/taggable-store.js';
import { tagLabels } from '../../core/tagging.js';

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

/** A row with its tags. */
export type VolumeRow = WithTags<Selectable<VolumeTable>>;

export const VOLUME_KIND = 'volume';

/** The block device path inside an attached instance, named after the label. */
export const filesystemPath = (label: string) => `/dev/disk/by-id/scsi-0Cloud_Volume_${label}`;

/** Rows as the API shows them; the labels of their instances in one call. */
export async function toVolumes(db: Db | Trx, rows: VolumeRow[], deps: ShowDeps): Promise<Volume[]> {
  const now = deps.clock.now();
  const computeIds = [...new Set(rows.map((r) => r.compute_id).filter((id): id is number => id !== null))];
  const labels = computeIds.length ? await deps.services.computes.labels(db, computeIds) : new Map<number, string>();
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
    tags: tagLabels(row.tags),
  }));
}

export const volumeStore = taggableStore<Selectable<VolumeTable>, Volume>({ table: 'volumes', kind: VOLUME_KIND, field: 'volumes', show: toVolumes });
