// Support: tickets (`new` until support staff take them up, the clock's transition time, then
// `open`; the user closes an `open` one), replies and attachments. A closed ticket stays closed:
// it still takes replies and attachments (the conversation stays on record; nothing reopens it),
// but not a second close.
import { cachedPages, defineArea, defineHandlers } from '../../core/area.js';
import type { HandlerContext } from '../../core/area.js';
import { inState, settle, transition } from '../../core/clock.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { Trx } from '../../core/store/db.js';
import { paginate } from '../../core/store/pagination.js';
import { recordManagedIssue } from '../managed/store.js';
import { uploadedFile } from '../../core/uploads.js';
import { ACCEPTED_EXTENSIONS, baseName, hasAcceptedExtension } from './files.js';
import { ticketEntity } from './entities.js';
import { migrations, OPEN_FIRST } from './migrations.js';
import { avatarOf, toReply, toTickets } from './store.js';
import type { SupportTicket, TicketRow } from './store.js';

async function ticketOrNotFound(db: HandlerContext['db'] | Trx, id: number): Promise<TicketRow> {
  const row = await db.selectFrom('support_tickets').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`Support ticket ${id} does not exist`);
  return row;
}

async function shown(ctx: HandlerContext, row: TicketRow): Promise<SupportTicket> {
  const [ticket] = await toTickets(ctx.db, [row], ctx.clock.now());
  return ticket!;
}

const userOf = (ctx: HandlerContext) => ctx.auth?.userName ?? 'unknown';

/** Marks a ticket updated by the user (a reply, an attachment); 404 when there is no such ticket. */
async function touchTicket(trx: Trx, ctx: HandlerContext, ticketId: number): Promise<void> {
  const result = await trx.updateTable('support_tickets').set({ updated: ctx.clock.now(), updated_by: userOf(ctx) })
    .where('id', '=', ticketId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(`Support ticket ${ticketId} does not exist`);
}

export default defineArea({
  name: 'support',
  tags: ['Support'],
  migrations,
  handlers: defineHandlers({
    // Open tickets (`new` and `open`) first, then closed ones; newest first within each.
    listSupportTickets: cachedPages(async (ctx) => paginate(
      ctx.db,
      ctx.db.selectFrom('support_tickets').selectAll()
        .orderBy(OPEN_FIRST).orderBy('id', 'desc'),
      ctx.query,
      (rows) => toTickets(ctx.db, rows, ctx.clock.now()),
    )),

    // The ticket is about at most one object (the schema refuses two), which must exist; a VLAN
    // ticket's region must exist. `managed_issue: true` also records a managed issue.
    openSupportTicket: async (ctx) => {
      const { summary, description, managed_issue: managedIssue = false, vlan, region } = ctx.body;
      const entity = await ticketEntity(ctx, ctx.body);
      if (region !== undefined && !ctx.catalogue.region(region)) throw badRequest(`Region ${region} does not exist`, 'region');
      const user = userOf(ctx);
      const row = await ctx.write(async (trx) => {
        const now = ctx.clock.now();
        const created = await trx.insertInto('support_tickets').values({
          summary, description, ...transition(ctx.clock, 'new', 'open'),
          opened: now, closed: null, updated: now, opened_by: user, updated_by: null, avatar_id: avatarOf(user),
          entity_id: entity?.id ?? null, entity_label: entity?.label ?? null, entity_type: entity?.type ?? null, entity_url: entity?.url ?? null,
          managed_issue: managedIssue ? 1 : 0, vlan: vlan ?? null, region: region ?? null,
        }).returningAll().executeTakeFirstOrThrow();
        if (managedIssue) await recordManagedIssue(trx, created, now);
        return created;
      });
      return shown(ctx, row);
    },

    getSupportTicket: async (ctx) => shown(ctx, await ticketOrNotFound(ctx.db, ctx.params.ticketId)),

    // Only an `open` ticket is closable: one conditional UPDATE, so of two closes one wins.
    closeSupportTicket: async (ctx) => {
      const { ticketId } = ctx.params;
      await ctx.write(async (trx) => {
        const now = ctx.clock.now();
        const result = await trx.updateTable('support_tickets')
          .set({ status: 'closed', next_status: null, transition_at: null, closed: now, updated: now, updated_by: userOf(ctx) })
          .where('id', '=', ticketId).where(inState('open', now)).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) {
          const row = await ticketOrNotFound(trx, ticketId);
          const status = settle(row, now);
          throw badRequest(status === 'closed'
            ? `Support ticket ${ticketId} is already closed`
            : `Support ticket ${ticketId} is not closable while it is ${status}: support staff have not taken it up yet`);
        }
      });
      return {};
    },

    listTicketReplies: cachedPages(async (ctx) => {
      const { ticketId } = ctx.params;
      await ticketOrNotFound(ctx.db, ticketId);
      return paginate(ctx.db, ctx.db.selectFrom('ticket_replies').selectAll().where('ticket_id', '=', ticketId).orderBy('id'), ctx.query, (rows) => rows.map(toReply));
    }),

    createTicketReply: async (ctx) => {
      const { ticketId } = ctx.params;
      const user = userOf(ctx);
      const row = await ctx.write(async (trx) => {
        await touchTicket(trx, ctx, ticketId);
        return trx.insertInto('ticket_replies').values({
          ticket_id: ticketId, created: ctx.clock.now(), created_by: user, description: ctx.body.description, from_provider: 0, avatar_id: avatarOf(user),
        }).returningAll().executeTakeFirstOrThrow();
      });
      return toReply(row);
    },

    // The file's name (without directories) must have an accepted extension; its bytes are kept.
    uploadTicketAttachment: async (ctx) => {
      const { ticketId } = ctx.params;
      // The body type covers JSON bodies only; the multipart parser gives `{file: <file name>}`.
      const fileName = baseName(String((ctx.body as { file?: unknown } | undefined)?.file ?? ''));
      if (!hasAcceptedExtension(fileName)) {
        throw badRequest(`The file name ${JSON.stringify(fileName)} must end in one of ${ACCEPTED_EXTENSIONS.join(', ')}`, 'file');
      }
      const data = uploadedFile(ctx.request);
      if (!data) throw badRequest('The part named file must be a file (with a file name in its Content-Disposition)', 'file');
      if (data.length === 0) throw badRequest(`The file ${fileName} is empty`, 'file');
      await ctx.write(async (trx) => {
        await touchTicket(trx, ctx, ticketId);
        await trx.insertInto('ticket_attachments').values({ ticket_id: ticketId, file_name: fileName, size: data.length, data, created: ctx.clock.now() }).execute();
      });
      return {};
    },
  }),
});
