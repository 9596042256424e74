// Balancer, config and node rows: their table types, and how rows become the API's objects.
import type { components } from '@cloudapi/types';
import type { Generated, Selectable } from 'kysely';
import type { Clock, StateColumns } from '../../core/clock.js';
import { settle, timestamp } from '../../core/clock.js';
import type { Db, Trx } from '../../core/store/db.js';
import type { TimestampColumns } from '../../core/store/schema.js';
import { taggableStore } from '../../core/taggable-store.js';
import type { WithTags } from '../../core/taggable-store.js';
import { tagLabels } from '../../core/tagging.js';
import { fromBase64, toHex } from '../../platform/bytes.js';
import { platform } from '../../platform/node.js';

export type Balancer = components['schemas']['Balancer'];
export type BalancerConfig = components['schemas']['BalancerConfig'];
export type BalancerNode = components['schemas']['BalancerNode'];
export type NodeStatus = BalancerNode['status'];

export interface BalancerTable extends TimestampColumns {
  id: Generated<number>;
  label: string;
  region: string;
  client_conn_throttle: number;
}

/** The settings of a config as stored (booleans as 0/1). */
export interface ConfigSettings {
  port: number;
  protocol: BalancerConfig['protocol'];
  algorithm: BalancerConfig['algorithm'];
  stickiness: BalancerConfig['stickiness'];
  check: BalancerConfig['check'];
  check_interval: number;
  check_timeout: number;
  check_attempts: number;
  check_path: string;
  check_body: string;
  check_passive: number;
  proxy_protocol: BalancerConfig['proxy_protocol'];
  cipher_suite: BalancerConfig['cipher_suite'];
  ssl_cert: string | null;
  ssl_key: string | null;
  ssl_commonname: string;
  ssl_fingerprint: string;
}

export interface BalancerConfigTable extends ConfigSettings {
  id: Generated<number>;
  balancer_id: number;
}

export interface BalancerNodeTable extends StateColumns<NodeStatus> {
  id: Generated<number>;
  config_id: number;
  balancer_id: number;
  address: string;
  label: string;
  mode: BalancerNode['mode'];
  weight: number;
}

declare module '../../core/store/schema.js' {
  interface Database {
    balancers: BalancerTable;
    balancer_configs: BalancerConfigTable;
    balancer_nodes: BalancerNodeTable;
  }
}

export type BalancerRow = WithTags<Selectable<BalancerTable>>;
export type ConfigRow = Selectable<BalancerConfigTable>;
export type NodeRow = Selectable<BalancerNodeTable>;

export const BALANCER_KIND = 'balancer';

/** What responses show in place of a certificate or key: the secret itself never leaves. */
export const REDACTED = '<REDACTED>';

// ---- Addresses ----------------------------------------------------------------------------------
// A balancer's public addresses follow from its id, and ids are never reused (autoincrement,
// serial), so a deleted balancer's addresses are gone for good and a new one gets new ones.
// IPv4 from 198.18.0.0/15 (131,070 balancers), IPv6 from the documentation prefix.
const IPV4_BASE = (198 << 24) + (18 << 16);

export function balancerIpv4(id: number): string {
  const n = IPV4_BASE + (id % 0x1fffe) + 1;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export const balancerIpv6 = (id: number) => `2001:db8:ba1::${id.toString(16)}`;
export const balancerHostname = (id: number) => `${balancerIpv4(id).replaceAll('.', '-')}.ip.cloud.example`;

// ---- Certificates -------------------------------------------------------------------------------

/**
 * The read-only fields derived from a PEM certificate: its subject's common name (empty when the
 * certificate cannot be parsed as X.509, such as the spec's placeholder examples) and the SHA-256
 * fingerprint of its first certificate's DER bytes (colon-separated hex).
 */
export function certificateFacts(pem: string | null): { ssl_commonname: string; ssl_fingerprint: string } {
  if (pem === null) return { ssl_commonname: '', ssl_fingerprint: '' };
  const body = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem)?.[1] ?? pem;
  const der = fromBase64(body);
  const ssl_fingerprint = toHex(platform.sha256(der)).toUpperCase().match(/../g)!.join(':');
  // '' when not parsable as X.509: the fingerprint still identifies the text sent.
  return { ssl_commonname: platform.x509CommonName(pem), ssl_fingerprint };
}

// ---- Reads and response shapes -----------------------------------------------------------------

/** Balancers as the API shows them. */
export function toBalancers(rows: BalancerRow[]): Balancer[] {
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    region: row.region,
    hostname: balancerHostname(row.id),
    ipv4: balancerIpv4(row.id),
    ipv6: balancerIpv6(row.id),
    created: timestamp(row.created),
    updated: timestamp(row.updated),
    client_conn_throttle: row.client_conn_throttle,
    // No traffic passes through this server's balancers: the measured transfer is zero.
    transfer: { in: 0, out: 0, total: 0 },
    tags: tagLabels(row.tags),
  }));
}

export const balancerStore = taggableStore<Selectable<BalancerTable>, Balancer>({ table: 'balancers', kind: BALANCER_KIND, field: 'balancers', show: (_db, rows) => toBalancers(rows) });

/** Configs as the API shows them: secrets redacted, the health of their nodes counted in one query. */
export async function toConfigs(db: Db | Trx, rows: ConfigRow[], clock: Clock): Promise<BalancerConfig[]> {
  const counts = new Map<number, { up: number; down: number }>(rows.map((r) => [r.id, { up: 0, down: 0 }]));
  if (rows.length) {
    const nodes = await db.selectFrom('balancer_nodes').select(['config_id', 'status', 'next_status', 'transition_at'])
      .where('config_id', 'in', rows.map((r) => r.id)).execute();
    const now = clock.now();
    for (const node of nodes) {
      const status = settle(node, now);
      const count = counts.get(node.config_id)!;
      if (status === 'UP') count.up++;
      else if (status === 'DOWN') count.down++;
    }
  }
  return rows.map(({ ssl_cert, ssl_key, check_passive, ...row }) => ({
    ...row,
    check_passive: check_passive === 1,
    ssl_cert: ssl_cert === null ? null : REDACTED,
    ssl_key: ssl_key === null ? null : REDACTED,
    nodes_status: counts.get(row.id)!,
  }));
}

export function toNode(row: NodeRow, now: number): BalancerNode {
  return {
    id: row.id,
    config_id: row.config_id,
    balancer_id: row.balancer_id,
    address: row.address,
    label: row.label,
    status: settle(row, now),
    weight: row.weight,
    mode: row.mode,
  };
}
