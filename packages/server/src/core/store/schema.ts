// The typed shape of every table, for Kysely. Each area adds its own tables from its own folder
// by declaration merging, so no area edits this file:
//
//   declare module '../../core/store/schema.js' {
//     interface Database { volumes: VolumeTable }
//   }
//
// Conventions (both engines): ids are integers from the engine's sequence; times are epoch
// milliseconds in `bigint` columns; booleans are integers 0/1; lists and objects are JSON text.
import type { Generated } from 'kysely';

/** `created` and `updated` of a resource, epoch ms (the API shows them as `timestamp()`). */
export interface TimestampColumns {
  created: number;
  updated: number;
}

/** Read or write permission a restricted user holds on one object (see core/permissions.ts). */
export interface ObjectGrantTable {
  token_id: string;
  entity: string;
  object_id: string;
  level: 'read_only' | 'read_write';
}

/** Tags exist on their own; `taggings` attaches them to objects of any kind. */
export interface TagTable {
  label: string;
  created: number;
}

export interface TaggingTable {
  label: string;
  /** The tagged object's kind, as `TaggedObject.type` names it: `volume`, `domain`, ... */
  kind: string;
  object_id: number;
}

export interface Database {
  object_grants: ObjectGrantTable;
  tags: TagTable;
  taggings: TaggingTable;
}

export type { Generated };
