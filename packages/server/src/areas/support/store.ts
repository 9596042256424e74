// Support rows: their table types, and how rows become the API's tickets and replies.
import type { components } from '@cloudapi/types';
import type { Generated, Selectable } from 'kysely';
import type { StateColumns } from '../../core/clock.js';
import { settle, timestamp } from '../../core/clock.js';
import type { Db, Trx } from '../../core/store/db.js';
import type { TICKET_STATUSES } from './migrations.js';
import { platform } from '../../platform/node.js';

export type SupportTicket = components['schemas']['SupportTicket'];
export type TicketReply = components['schemas']['TicketReply'];

export interface SupportTicketTable extends StateColumns<(typeof TICKET_STATUSES)[number]> {
  id: Generated<number>;
  summary: string;
  description: string;
  opened: number;
  closed: number | null;
  updated: number;
  opened_by: string;
  updated_by: string | null;
  avatar_id: string;
  entity_id: number | null;
  entity_label: string | null;
  entity_type: string | null;
  entity_url: string | null;
  managed_issue: number;
  vlan: string | null;
  region: string | null;
}

export interface TicketReplyTable {
  id: Generated<number>;
  ticket_id: number;
  created: number;
  created_by: string;
  description: string;
  from_provider: number;
  avatar_id: string;
}

export interface TicketAttachmentTable {
  id: Generated<number>;
  ticket_id: number;
  file_name: string;
  size: number;
  data: Uint8Array;
  created: number;
}

declare module '../../core/store/schema.js' {
  interface Database {
    support_tickets: SupportTicketTable;
    ticket_replies: TicketReplyTable;
    ticket_attachments: TicketAttachmentTable;
  }
}

export type TicketRow = Selectable<SupportTicketTable>;

/** The avatar of a user: the MD5 of its name, as avatar services key them. */
export const avatarOf = (userName: string) => platform.md5Hex(userName);

/** Tickets as the API shows them, with the attachment names of all of them in one query. */
export async function toTickets(db: Db | Trx, rows: TicketRow[], now: number): Promise<SupportTicket[]> {
  const ids = rows.map((r) => r.id);
  const files = ids.length ? await db.selectFrom('ticket_attachments').select(['ticket_id', 'file_name']).where('ticket_id', 'in', ids).orderBy('id').execute() : [];
  const names = new Map<number, string[]>();
  for (const file of files) names.set(file.ticket_id, [...(names.get(file.ticket_id) ?? []), file.file_name]);
  return rows.map((row) => {
    const status = settle(row, now);
    return {
      id: row.id,
      summary: row.summary,
      description: row.description,
      status,
      closable: status === 'open',
      opened: timestamp(Number(row.opened)),
      closed: row.closed === null ? null : timestamp(Number(row.closed)),
      updated: timestamp(Number(row.updated)),
      opened_by: row.opened_by,
      updated_by: row.updated_by,
      avatar_id: row.avatar_id,
      attachments: names.get(row.id) ?? [],
      entity: row.entity_id === null ? null : { id: row.entity_id, label: row.entity_label ?? '', type: row.entity_type ?? '', url: row.entity_url ?? '' },
    };
  });
}

export const toReply = (row: Selectable<TicketReplyTable>): TicketReply => ({
  id: row.id,
  created: timestamp(Number(row.created)),
  created_by: row.created_by,
  description: row.description,
  from_provider: row.from_provider === 1,
  avatar_id: row.avatar_id,
});
