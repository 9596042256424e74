// Domains: DNS zones and their records, the rules of master and slave zones and of each record
// type, zone import by AXFR, clone, and the zone file rendered from the records (BIND syntax) each
// time an active domain or its records change; a disabled domain keeps its last rendering.
import { cachedPages, defineArea, defineHandlers } from '../../core/area.js';
import type { HandlerContext } from '../../core/area.js';
import { badRequest, notFound } from '../../core/errors.js';
import { forgetObject } from '../../core/permissions.js';
import { isUniqueViolation } from '../../core/store/constraints.js';
import { forUpdate } from '../../core/store/kind.js';
import type { Db, Trx } from '../../core/store/db.js';
import { paginate } from '../../core/store/pagination.js';
import { setTags, tagLabels, untagObject } from '../../core/tagging.js';
import { TransferError } from '../../sandbox/sandbox.js';
import { importedZone } from './import.js';
import { migrations } from './migrations.js';
import { checkAmongOthers, checkComplete, mergedRecord, recordValues, roundDomainTiming } from './records.js';
import type { RecordInput } from './records.js';
import { DOMAIN_KIND, domainStore, recordsOf, toDomains, toRecord } from './store.js';
import type { Domain, DomainRow, DomainTable, RecordValues } from './store.js';
import { nextSerial, renderZone } from './zonefile.js';

async function domainOrNotFound(db: Db | Trx, id: number): Promise<DomainRow> {
  const row = await domainStore.find(db, id);
  if (!row) throw notFound(`Domain ${id} does not exist`);
  return row;
}

/** The id of `{domainId}` where the spec types it a string (clone, zone file). */
function domainIdOf(value: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id)) throw notFound(`Domain ${value} does not exist`);
  return id;
}

/** Locks the domain's row for the rest of the transaction: its record rules are checked alone. */
async function lockDomain(trx: Trx, id: number): Promise<DomainRow> {
  const locked = await forUpdate(trx, trx.selectFrom('domains').select('id').where('id', '=', id)).executeTakeFirst();
  if (!locked) throw notFound(`Domain ${id} does not exist`);
  return domainOrNotFound(trx, id);
}

const shown = (row: DomainRow): Domain => toDomains([row])[0]!;

/** Renders an active domain's zone from what the transaction holds; a disabled one keeps its last. */
async function render(trx: Trx, id: number, now: number): Promise<void> {
  const domain = await domainOrNotFound(trx, id);
  if (domain.status !== 'active') return;
  const serial = nextSerial(Number(domain.zone_serial), now);
  const lines = renderZone(domain, await recordsOf(trx, id), serial);
  await trx.updateTable('domains').set({ zone_serial: serial, zone_file: JSON.stringify(lines) }).where('id', '=', id).execute();
}

const hostedAlready = (domain: string) => badRequest(`The domain ${domain} is already hosted on the platform`, 'domain');

/** A write that adds or renames a domain: a name hosted anywhere already is a 400 naming `domain`. */
async function writeUniqueDomain<T>(ctx: HandlerContext, domain: string, work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return await ctx.write(work);
  } catch (error) {
    if (isUniqueViolation(error)) throw hostedAlready(domain);
    throw error;
  }
}

type NewDomain = Omit<DomainTable, 'id' | 'zone_serial' | 'zone_file' | 'created' | 'updated'>;

async function insertDomain(trx: Trx, ctx: HandlerContext, values: NewDomain, tags: readonly string[], records: RecordValues[]): Promise<number> {
  const now = ctx.clock.now();
  const { id } = await trx.insertInto('domains').values({ ...values, zone_file: null, created: now, updated: now }).returning('id').executeTakeFirstOrThrow();
  await ctx.recordCreator(trx, DOMAIN_KIND, id);
  await setTags(trx, DOMAIN_KIND, id, tags, now, { replace: false });
  if (records.length) await trx.insertInto('domain_records').values(records.map((r) => ({ ...r, domain_id: id, created: now, updated: now }))).execute();
  await render(trx, id, now);
  return id;
}

const timings = (body: { ttl_sec?: number; refresh_sec?: number; retry_sec?: number; expire_sec?: number }) => Object.fromEntries(
  (['ttl_sec', 'refresh_sec', 'retry_sec', 'expire_sec'] as const).filter((f) => body[f] !== undefined).map((f) => [f, roundDomainTiming(body[f]!)]),
) as Partial<Pick<NewDomain, 'ttl_sec' | 'refresh_sec' | 'retry_sec' | 'expire_sec'>>;

/** A master domain needs its SOA address, a slave its primary name servers. */
function checkTypeRules(type: Domain['type'], soaEmail: string, masterIps: string[]): void {
  if (type === 'master' && soaEmail === '') throw badRequest('A master domain needs soa_email', 'soa_email');
  if (type === 'slave' && masterIps.length === 0) throw badRequest('A slave domain needs at least one address in master_ips', 'master_ips');
}

/** Checks and writes a record of a locked domain; `self` is the record being updated. */
async function writeRecord(trx: Trx, ctx: HandlerContext, domain: DomainRow, input: RecordInput, self?: number): Promise<number> {
  const values = recordValues(domain.domain, input, ctx.request.ip);
  let others = trx.selectFrom('domain_records').select(['type', 'name', 'target']).where('domain_id', '=', domain.id);
  if (self !== undefined) others = others.where('id', '<>', self);
  checkAmongOthers(values, await others.execute());
  const now = ctx.clock.now();
  let id = self;
  if (id === undefined) {
    ({ id } = await trx.insertInto('domain_records').values({ ...values, domain_id: domain.id, created: now, updated: now }).returning('id').executeTakeFirstOrThrow());
  } else {
    await trx.updateTable('domain_records').set({ ...values, updated: now }).where('id', '=', id).execute();
  }
  await trx.updateTable('domains').set({ updated: now }).where('id', '=', domain.id).execute();
  await render(trx, domain.id, now);
  return id;
}

async function recordOrNotFound(db: Db | Trx, domainId: number, recordId: number) {
  const row = await db.selectFrom('domain_records').selectAll().where('domain_id', '=', domainId).where('id', '=', recordId).executeTakeFirst();
  if (!row) throw notFound(`Record ${recordId} of domain ${domainId} does not exist`);
  return row;
}

export default defineArea({
  name: 'domains',
  tags: ['Domains'],
  migrations,
  taggables: [domainStore.taggable],
  handlers: defineHandlers({
    listDomains: cachedPages(async (ctx) => paginate(ctx.db, domainStore.list(ctx.db), ctx.query, (rows) => domainStore.show(ctx.db, rows, ctx))),

    getDomain: async (ctx) => shown(await domainOrNotFound(ctx.db, ctx.params.domainId)),

    // The schema holds the master/slave rule of a create; the name is unique in SQL.
    createDomain: async (ctx) => {
      const body = ctx.body;
      const domain = body.domain.toLowerCase();
      const values: NewDomain = {
        domain, type: body.type, status: body.status ?? 'active', description: body.description ?? '', display_group: body.group ?? '',
        soa_email: body.soa_email ?? '', master_ips: JSON.stringify(body.master_ips ?? []), axfr_ips: JSON.stringify(body.axfr_ips ?? []),
        ttl_sec: 0, refresh_sec: 0, retry_sec: 0, expire_sec: 0, ...timings(body),
      };
      checkTypeRules(values.type, values.soa_email, body.master_ips ?? []);
      const id = await writeUniqueDomain(ctx, domain, (trx) => insertDomain(trx, ctx, values, body.tags ?? [], []));
      return shown(await domainOrNotFound(ctx.db, id));
    },

    // The zone is transferred before anything is written; a refused or broken transfer writes nothing.
    importDomain: async (ctx) => {
      const domain = ctx.body.domain.toLowerCase();
      const nameserver = ctx.body.remote_nameserver;
      // Spares a transfer for a name already hosted; the unique index still decides.
      if (await ctx.db.selectFrom('domains').select('id').where('domain', '=', domain).executeTakeFirst()) throw hostedAlready(domain);
      let zone;
      try {
        zone = importedZone(await ctx.sandbox.transferZone(nameserver, domain), domain, nameserver, ctx.operation);
      } catch (error) {
        if (error instanceof TransferError) throw badRequest(`The zone transfer (AXFR) of ${domain} failed: ${error.message}`, 'remote_nameserver');
        throw error;
      }
      const values: NewDomain = {
        domain, type: 'master', status: 'active', description: '', display_group: '', soa_email: zone.soa_email,
        master_ips: '[]', axfr_ips: '[]', ttl_sec: zone.ttl_sec, refresh_sec: zone.refresh_sec, retry_sec: zone.retry_sec, expire_sec: zone.expire_sec,
      };
      const records = zone.records.map((input) => recordValues(domain, input, undefined));
      const id = await writeUniqueDomain(ctx, domain, (trx) => insertDomain(trx, ctx, values, [], records));
      return shown(await domainOrNotFound(ctx.db, id));
    },

    // The domain as it stands after the update must meet its type's rule.
    updateDomain: async (ctx) => {
      const { domainId } = ctx.params;
      const body = ctx.body;
      const rename = body.domain?.toLowerCase();
      const row = await writeUniqueDomain(ctx, rename ?? '', async (trx) => {
        const current = await lockDomain(trx, domainId);
        const type = body.type ?? current.type;
        const soaEmail = body.soa_email ?? current.soa_email;
        const masterIps = body.master_ips ?? (JSON.parse(current.master_ips) as string[]);
        checkTypeRules(type, soaEmail, masterIps);
        const now = ctx.clock.now();
        await trx.updateTable('domains').set({
          ...(rename !== undefined ? { domain: rename } : {}),
          type, soa_email: soaEmail, master_ips: JSON.stringify(masterIps),
          ...(body.status !== undefined ? { status: body.status } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.group !== undefined ? { display_group: body.group } : {}),
          ...(body.axfr_ips !== undefined ? { axfr_ips: JSON.stringify(body.axfr_ips) } : {}),
          ...timings(body),
          updated: now,
        }).where('id', '=', domainId).execute();
        if (body.tags !== undefined) await setTags(trx, DOMAIN_KIND, domainId, body.tags, now);
        await render(trx, domainId, now);
        return domainOrNotFound(trx, domainId);
      });
      return shown(row);
    },

    // Irreversible: the records go with it.
    deleteDomain: async (ctx) => {
      const { domainId } = ctx.params;
      await ctx.write(async (trx) => {
        await lockDomain(trx, domainId);
        await trx.deleteFrom('domain_records').where('domain_id', '=', domainId).execute();
        await trx.deleteFrom('domains').where('id', '=', domainId).execute();
        await untagObject(trx, DOMAIN_KIND, domainId);
        await forgetObject(trx, DOMAIN_KIND, domainId);
      });
      return {};
    },

    // The new domain has the source's settings and tags and a copy of every record.
    cloneDomain: async (ctx) => {
      const sourceId = domainIdOf(ctx.params.domainId);
      const domain = ctx.body.domain.toLowerCase();
      const id = await writeUniqueDomain(ctx, domain, async (trx) => {
        const source = await lockDomain(trx, sourceId);
        const { id: _id, zone_serial: _serial, zone_file: _zone, created: _created, updated: _updated, tags, ...settings } = source;
        const records = (await recordsOf(trx, sourceId)).map(({ id: _r, domain_id: _d, created: _c, updated: _u, ...values }) => values);
        return insertDomain(trx, ctx, { ...settings, domain }, tagLabels(tags ?? null), records);
      });
      return shown(await domainOrNotFound(ctx.db, id));
    },

    getDomainZoneFile: async (ctx) => {
      const row = await domainOrNotFound(ctx.db, domainIdOf(ctx.params.domainId));
      return { zone_file: row.zone_file ? (JSON.parse(row.zone_file) as string[]) : [] };
    },

    listDomainRecords: cachedPages(async (ctx) => {
      const { domainId } = ctx.params;
      await domainOrNotFound(ctx.db, domainId);
      return paginate(ctx.db, ctx.db.selectFrom('domain_records').selectAll().where('domain_id', '=', domainId).orderBy('id'), ctx.query, (rows) => rows.map(toRecord));
    }),

    getDomainRecord: async (ctx) => toRecord(await recordOrNotFound(ctx.db, ctx.params.domainId, ctx.params.recordId)),

    // The schema holds the per-type rules of the body; the rules among records are checked with
    // the domain locked.
    createDomainRecord: async (ctx) => {
      const { domainId } = ctx.params;
      const id = await ctx.write(async (trx) => writeRecord(trx, ctx, await lockDomain(trx, domainId), ctx.body as RecordInput));
      return toRecord(await recordOrNotFound(ctx.db, domainId, id));
    },

    // The record as it would stand is checked against the create schema (an update without
    // `type` keeps the record's type and its rules).
    updateDomainRecord: async (ctx) => {
      const { domainId, recordId } = ctx.params;
      await ctx.write(async (trx) => {
        const domain = await lockDomain(trx, domainId);
        const current = await recordOrNotFound(trx, domainId, recordId);
        const merged = mergedRecord(current, ctx.body as Partial<RecordInput>);
        checkComplete(merged, ctx.operation);
        await writeRecord(trx, ctx, domain, merged, recordId);
      });
      return toRecord(await recordOrNotFound(ctx.db, domainId, recordId));
    },

    deleteDomainRecord: async (ctx) => {
      const { domainId, recordId } = ctx.params;
      await ctx.write(async (trx) => {
        await lockDomain(trx, domainId);
        await recordOrNotFound(trx, domainId, recordId);
        await trx.deleteFrom('domain_records').where('id', '=', recordId).execute();
        await render(trx, domainId, ctx.clock.now());
      });
      return {};
    },
  }),
});
