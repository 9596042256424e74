// Private image rows: their table, and how a row (or a catalogue entry) becomes the API's Image.
import type { components } from '@cloudapi/types';
import type { Generated, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';
import type { Migrations } from '../../core/store/migrations.js';
import { valueIn, withIdColumn, withStateColumns } from '../../core/store/migration-kit.js';
import { settle, timestamp } from '../../core/clock.js';
import type { StateColumns } from '../../core/clock.js';
import type { TimestampColumns } from '../../core/store/schema.js';

export type Image = components['schemas']['Image'];
type PrivateStatus = 'creating' | 'pending_upload' | 'available';

export interface ImageTable extends StateColumns<PrivateStatus>, TimestampColumns {
  id: Generated<number>;
  label: string;
  description: string | null;
  /** Minimum disk size to deploy, MB (0 until the data is known). */
  size: number;
  /** The region an upload was made to (the image can then be deployed in any region). */
  region: string | null;
  created_by: string;
  /** The secret part of `upload_to`; null once the data has arrived (or for a capture). */
  upload_token: string | null;
}

declare module '../../core/store/schema.js' {
  interface Database {
    images: ImageTable;
  }
}

export type ImageRow = Selectable<ImageTable>;

export const IMAGE_ENTITY = 'image';
/** An upload must arrive within 24 hours of its creation, or the image is deleted. */
/** Where an image's `upload_to` URL points (upload.ts serves it). */
export const UPLOAD_PATH = '/uploads/images';
export const UPLOAD_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The largest compressed upload accepted: 5 GB. */
export const MAX_UPLOAD_BYTES = 5 * 1000 ** 3;

export const migrations: Migrations = {
  '202611231620_images_create_table': {
    async up(db) {
      await withStateColumns(withIdColumn(db, db.schema.createTable('images')))
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('region', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('upload_token', 'text', (c) => c.unique())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('updated', 'bigint', (c) => c.notNull())
        .addCheckConstraint('images_status', valueIn('status', ['creating', 'pending_upload', 'available']))
        .execute();
    },
  },
};

export const privateId = (id: number) => `private/${id}`;

/** The row id of `private/<n>`, or undefined when the id cannot name a private image. */
export function rowIdOf(imageId: string): number | undefined {
  const match = /^private\/(\d{1,9})$/.exec(imageId);
  return match ? Number(match[1]) : undefined;
}

/** Uploads that never arrived within the window are gone: every query leaves them out. */
export function notExpired(now: number): Expression<SqlBool> {
  return sql<SqlBool>`not (status = 'pending_upload' and next_status is null and created <= ${now - UPLOAD_WINDOW_MS})`;
}

export function toImage(row: ImageRow, now: number): Image {
  return {
    id: privateId(row.id),
    label: row.label,
    description: row.description,
    created: timestamp(row.created),
    updated: timestamp(row.updated),
    created_by: row.created_by,
    deprecated: false,
    eol: null,
    expiry: null,
    is_public: false,
    size: row.size,
    status: settle(row, now),
    type: 'manual',
    vendor: null,
  };
}
