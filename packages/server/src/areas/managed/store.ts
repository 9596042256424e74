// Managed rows: their table types, and how rows become the API's objects.
import type { components } from '@cloudapi/types';
import type { Generated, Selectable } from 'kysely';
import type { StateColumns } from '../../core/clock.js';
import { settle, timestamp } from '../../core/clock.js';
import type { InstanceSummary } from '../../core/services.js';
import type { Db, Trx } from '../../core/store/db.js';
import { concatBytes, toBase64, utf8 } from '../../platform/bytes.js';
import { platform } from '../../platform/node.js';
import type { SERVICE_STATUSES, SERVICE_TYPES } from './migrations.js';

type Schemas = components['schemas'];
export type ManagedContact = Schemas['ManagedContact'];
export type ManagedCredential = Schemas['ManagedCredential'];
export type ManagedIssue = Schemas['ManagedIssue'];
export type ManagedService = Schemas['ManagedService'];
export type ManagedComputeSettings = Schemas['ManagedComputeSettings'];

export interface ManagedContactTable {
  id: Generated<number>;
  name: string;
  email: string;
  contact_group: string | null;
  phone_primary: string;
  phone_secondary: string | null;
  updated: number;
}

export interface ManagedCredentialTable {
  id: Generated<number>;
  label: string;
  username_hash: string | null;
  password_hash: string;
  last_decrypted: number | null;
  updated: number;
}

export interface ManagedSshKeyTable {
  slot: number;
  ssh_key: string;
}

export interface ManagedIssueTable {
  id: Generated<number>;
  created: number;
  ticket_id: number;
  ticket_label: string;
  /** JSON list of service ids. */
  services: string;
}

export interface ManagedServiceTable extends StateColumns<(typeof SERVICE_STATUSES)[number]> {
  id: Generated<number>;
  address: string;
  body: string | null;
  consultation_group: string;
  label: string;
  notes: string | null;
  region: string | null;
  service_type: (typeof SERVICE_TYPES)[number];
  timeout: number;
  created: number;
  updated: number;
}

export interface ManagedServiceCredentialTable {
  service_id: number;
  credential_id: number;
}

export interface ManagedComputeSettingsTable {
  compute_id: number;
  access: number | null;
  ssh_user: string | null;
  ip: string | null;
  port: number | null;
}

declare module '../../core/store/schema.js' {
  interface Database {
    managed_contacts: ManagedContactTable;
    managed_credentials: ManagedCredentialTable;
    managed_ssh_key: ManagedSshKeyTable;
    managed_issues: ManagedIssueTable;
    managed_services: ManagedServiceTable;
    managed_service_credentials: ManagedServiceCredentialTable;
    managed_compute_settings: ManagedComputeSettingsTable;
  }
}

export const toContact = (row: Selectable<ManagedContactTable>): ManagedContact => ({
  id: row.id,
  name: row.name,
  email: row.email,
  group: row.contact_group,
  phone: { primary: row.phone_primary, secondary: row.phone_secondary },
  updated: timestamp(Number(row.updated)),
});

export const toCredential = (row: Pick<Selectable<ManagedCredentialTable>, 'id' | 'label' | 'last_decrypted'>): ManagedCredential => ({
  id: row.id,
  label: row.label,
  last_decrypted: row.last_decrypted === null ? null : timestamp(Number(row.last_decrypted)),
});

/** An issue as the API shows it; its ticket's URL lies below `basePath` (the bundle's, `/v4`). */
export const toIssue = (row: Selectable<ManagedIssueTable>, basePath: string): ManagedIssue => ({
  id: row.id,
  created: timestamp(Number(row.created)),
  entity: { id: row.ticket_id, label: row.ticket_label, type: 'ticket', url: `${basePath}/support/tickets/${row.ticket_id}` },
  services: JSON.parse(row.services) as number[],
});

/** Services as the API shows them, with the credentials of the whole page read in one query. */
export async function toServices(db: Db | Trx, rows: Selectable<ManagedServiceTable>[], now: number): Promise<ManagedService[]> {
  const ids = rows.map((r) => r.id);
  const links = ids.length ? await db.selectFrom('managed_service_credentials').selectAll().where('service_id', 'in', ids).orderBy('credential_id').execute() : [];
  const credentials = new Map<number, number[]>();
  for (const link of links) credentials.set(link.service_id, [...(credentials.get(link.service_id) ?? []), link.credential_id]);
  return rows.map((row) => ({
    id: row.id,
    address: row.address,
    body: row.body,
    consultation_group: row.consultation_group,
    credentials: credentials.get(row.id) ?? [],
    label: row.label,
    notes: row.notes,
    region: row.region,
    service_type: row.service_type,
    timeout: row.timeout,
    status: settle(row, now),
    created: timestamp(Number(row.created)),
    updated: timestamp(Number(row.updated)),
  }));
}

/** What support staff use for an instance nobody configured: root on its primary IPv4, port 22. */
export const DEFAULT_SSH = { access: true, user: 'root', port: 22 };

export function toComputeSettings(instance: InstanceSummary, row: Selectable<ManagedComputeSettingsTable> | undefined): ManagedComputeSettings {
  return {
    id: instance.id,
    label: instance.label,
    group: instance.group,
    ssh: {
      access: row?.access == null ? DEFAULT_SSH.access : row.access === 1,
      user: row?.ssh_user ?? DEFAULT_SSH.user,
      ip: row?.ip ?? instance.ipv4[0] ?? '',
      port: row?.port ?? DEFAULT_SSH.port,
    },
  };
}

/**
 * A salted scrypt hash, `scrypt$<salt>$<hash>` (base64). Credentials are kept only so: no
 * operation of the API gives a secret back, and the store never holds one in clear.
 */
export async function hashSecret(secret: string): Promise<string> {
  const salt = platform.randomBytes(16);
  const hash = await platform.scrypt(secret, salt, 32);
  return `scrypt$${toBase64(salt)}$${toBase64(hash)}`;
}

/** A new Ed25519 public key in OpenSSH `authorized_keys` form (the private half is not kept here). */
export function newSshPublicKey(): string {
  const field = (bytes: Uint8Array) => concatBytes(u32(bytes.length), bytes);
  const blob = concatBytes(field(utf8('ssh-ed25519')), field(platform.ed25519PublicKey()));
  return `ssh-ed25519 ${toBase64(blob)} managed@cloud.example`;
}

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}


/**
 * Records the managed issue a ticket reports (a ticket opened with `managed_issue: true`): its
 * entity is the ticket, and it concerns every monitored service of the account, since the
 * ticket names none. Called by the Support area in the ticket's transaction.
 */
export async function recordManagedIssue(trx: Trx, ticket: { id: number; summary: string }, now: number): Promise<void> {
  const services = await trx.selectFrom('managed_services').select('id').orderBy('id').execute();
  await trx.insertInto('managed_issues')
    .values({ created: now, ticket_id: ticket.id, ticket_label: ticket.summary, services: JSON.stringify(services.map((s) => s.id)) })
    .execute();
}
