// Domain and record rows: their table types, and how a row becomes the API's Domain or DomainRecord.
import type { components } from '@cloudapi/types';
import type { Generated, Insertable, Selectable } from 'kysely';
import { timestamp } from '../../core/clock.js';
import type { Db, Trx } from '../../core/store/db.js';
import type { TimestampColumns } from '../../core/store/schema.js';
import { taggableStore } from '../../core/taggable-store.js';
import type { WithTags } from '../../core/taggable-store.js';
import { tagLabels } from '../../core/tagging.js';

export type Domain = components['schemas']['Domain'];
export type DomainRecord = components['schemas']['DomainRecord'];
export type RecordType = DomainRecord['type'];

export interface DomainTable extends TimestampColumns {
  id: Generated<number>;
  domain: string;
  type: Domain['type'];
  status: Domain['status'];
  description: string;
  /** `group` is an SQL keyword. */
  display_group: string;
  soa_email: string;
  /** JSON list of addresses. */
  master_ips: string;
  axfr_ips: string;
  ttl_sec: number;
  refresh_sec: number;
  retry_sec: number;
  expire_sec: number;
  /** The SOA serial of the last rendering (YYYYMMDDnn). */
  zone_serial: Generated<number>;
  /** JSON list of the lines of the last rendering; null until first rendered. */
  zone_file: string | null;
}

export interface DomainRecordTable extends TimestampColumns {
  id: Generated<number>;
  domain_id: number;
  type: RecordType;
  name: string;
  target: string;
  priority: number;
  weight: number;
  port: number;
  service: string | null;
  protocol: string | null;
  ttl_sec: number;
  tag: DomainRecord['tag'];
}

declare module '../../core/store/schema.js' {
  interface Database {
    domains: DomainTable;
    domain_records: DomainRecordTable;
  }
}

export type DomainRow = WithTags<Selectable<DomainTable>>;
export type RecordRow = Selectable<DomainRecordTable>;
/** What a record holds, without its keys and times. */
export type RecordValues = Omit<Insertable<DomainRecordTable>, 'id' | 'domain_id' | 'created' | 'updated'>;

export const DOMAIN_KIND = 'domain';

/** Rows as the API shows them. */
export function toDomains(rows: DomainRow[]): Domain[] {
  return rows.map((row) => ({
    id: row.id,
    domain: row.domain,
    type: row.type,
    status: row.status,
    description: row.description,
    group: row.display_group,
    tags: tagLabels(row.tags),
    soa_email: row.soa_email,
    master_ips: JSON.parse(row.master_ips) as string[],
    axfr_ips: JSON.parse(row.axfr_ips) as string[],
    ttl_sec: row.ttl_sec as Domain['ttl_sec'],
    refresh_sec: row.refresh_sec as Domain['refresh_sec'],
    retry_sec: row.retry_sec as Domain['retry_sec'],
    expire_sec: row.expire_sec as Domain['expire_sec'],
  }));
}

export const domainStore = taggableStore<Selectable<DomainTable>, Domain>({ table: 'domains', kind: DOMAIN_KIND, field: 'domains', show: (_db, rows) => toDomains(rows) });

export function toRecord(row: RecordRow): DomainRecord {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    target: row.target,
    priority: row.priority,
    weight: row.weight,
    port: row.port,
    service: row.service,
    protocol: row.protocol,
    ttl_sec: row.ttl_sec as DomainRecord['ttl_sec'],
    tag: row.tag,
    created: timestamp(row.created),
    updated: timestamp(row.updated),
  };
}

export async function recordsOf(db: Db | Trx, domainId: number): Promise<RecordRow[]> {
  return db.selectFrom('domain_records').selectAll().where('domain_id', '=', domainId).orderBy('id').execute();
}
