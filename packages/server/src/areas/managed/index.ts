// Managed: the people support staff alert (contacts), logins they may use (credentials, whose
// secrets are write-only and kept only hashed), the account's SSH key, the issues detected, the
// monitored services (`pending` → `ok` once monitoring has started) and the SSH settings of each
// compute instance (instances come from the Compute area through `services.computes`).
import { cachedPages, defineArea, defineHandlers } from '../../core/area.js';
import type { HandlerContext } from '../../core/area.js';
import { transition } from '../../core/clock.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { InstanceSummary } from '../../core/services.js';
import { isUniqueViolation } from '../../core/store/constraints.js';
import type { Db, Trx } from '../../core/store/db.js';
import { pageBounds, pageCount, paginate } from '../../core/store/pagination.js';
import { specOf } from '../../core/spec.js';
import { migrations } from './migrations.js';
import {
  hashSecret, newSshPublicKey, toComputeSettings, toContact, toCredential, toIssue, toServices,
} from './store.js';

const credentialColumns = ['id', 'label', 'last_decrypted'] as const;

async function contactOrNotFound(db: Db | Trx, id: number) {
  const row = await db.selectFrom('managed_contacts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`Managed contact ${id} does not exist`);
  return row;
}

async function credentialOrNotFound(db: Db | Trx, id: number) {
  const row = await db.selectFrom('managed_credentials').select(credentialColumns).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`Managed credential ${id} does not exist`);
  return row;
}

async function instanceOrNotFound(ctx: Pick<HandlerContext, 'services' | 'db'>, id: number): Promise<InstanceSummary> {
  const instance = await ctx.services.computes.instance(ctx.db, id);
  if (!instance) throw notFound(`Compute instance ${id} does not exist`);
  return instance;
}

const labelTaken = (label: string) => badRequest(`A credential labelled ${label} already exists; labels are unique`, 'label');

/** Runs a write that may break the label's unique constraint: a 400 naming `label` then. */
async function withUniqueLabel<T>(label: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (label !== undefined && isUniqueViolation(error)) throw labelTaken(label);
    throw error;
  }
}

export default defineArea({
  name: 'managed',
  tags: ['Managed'],
  migrations,
  handlers: defineHandlers({
    listManagedContacts: cachedPages(async (ctx) => paginate(ctx.db, ctx.db.selectFrom('managed_contacts').selectAll().orderBy('id'), ctx.query, (rows) => rows.map(toContact))),

    // No field is required by the schema, but a contact is someone to alert at an address, and
    // the response always shows `name` and `email`: both are needed to create one.
    createManagedContact: async (ctx) => {
      const { name, email, group, phone } = ctx.body;
      if (name === undefined) throw badRequest('A new contact needs a name', 'name');
      if (email === undefined) throw badRequest('A new contact needs an email address to be alerted at', 'email');
      const row = await ctx.write((trx) => trx.insertInto('managed_contacts').values({
        name, email, contact_group: group ?? null,
        phone_primary: phone?.primary ?? '', phone_secondary: phone?.secondary ?? null,
        updated: ctx.clock.now(),
      }).returningAll().executeTakeFirstOrThrow());
      return toContact(row);
    },

    getManagedContact: async (ctx) => toContact(await contactOrNotFound(ctx.db, ctx.params.contactId)),

    // Fields left out keep their value; `group: null` and `phone.secondary: null` remove them.
    updateManagedContact: {
      keepNull: ['group'],
      handle: async (ctx) => {
        const { contactId } = ctx.params;
        const { name, email, group, phone } = ctx.body ?? {};
        const row = await ctx.write(async (trx) => {
          await contactOrNotFound(trx, contactId);
          await trx.updateTable('managed_contacts').set({
            ...(name != null ? { name } : {}),
            ...(email != null ? { email } : {}),
            ...(group !== undefined ? { contact_group: group } : {}),
            ...(phone?.primary != null ? { phone_primary: phone.primary } : {}),
            ...(phone?.secondary !== undefined ? { phone_secondary: phone.secondary } : {}),
            updated: ctx.clock.now(),
          }).where('id', '=', contactId).execute();
          return contactOrNotFound(trx, contactId);
        });
        return toContact(row);
      },
    },

    deleteManagedContact: async (ctx) => {
      const { contactId } = ctx.params;
      await ctx.write(async (trx) => {
        const result = await trx.deleteFrom('managed_contacts').where('id', '=', contactId).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw notFound(`Managed contact ${contactId} does not exist`);
      });
      return {};
    },

    listManagedCredentials: cachedPages(async (ctx) => paginate(ctx.db, ctx.db.selectFrom('managed_credentials').select(credentialColumns).orderBy('id'), ctx.query, (rows) => rows.map(toCredential))),

    // The label is unique: the constraint decides between two creates at once.
    createManagedCredential: async (ctx) => {
      const { label, username, password } = ctx.body;
      const [passwordHash, usernameHash] = await Promise.all([hashSecret(password), username === undefined ? null : hashSecret(username)]);
      const row = await ctx.write((trx) => trx.insertInto('managed_credentials')
        .values({ label, password_hash: passwordHash, username_hash: usernameHash, last_decrypted: null, updated: ctx.clock.now() })
        .onConflict((oc) => oc.column('label').doNothing())
        .returning(credentialColumns).executeTakeFirst());
      if (!row) throw labelTaken(label);
      return toCredential(row);
    },

    getManagedCredential: async (ctx) => toCredential(await credentialOrNotFound(ctx.db, ctx.params.credentialId)),

    updateManagedCredential: async (ctx) => {
      const { credentialId } = ctx.params;
      const { label } = ctx.body ?? {};
      const row = await withUniqueLabel(label, () => ctx.write(async (trx) => {
        await credentialOrNotFound(trx, credentialId);
        if (label !== undefined) {
          const other = await trx.selectFrom('managed_credentials').select('id').where('label', '=', label).where('id', '<>', credentialId).executeTakeFirst();
          if (other) throw labelTaken(label);
          await trx.updateTable('managed_credentials').set({ label, updated: ctx.clock.now() }).where('id', '=', credentialId).execute();
        }
        return credentialOrNotFound(trx, credentialId);
      }));
      return toCredential(row);
    },

    // Support staff lose access: the credential leaves every service that listed it.
    deleteManagedCredential: async (ctx) => {
      const { credentialId } = ctx.params;
      await ctx.write(async (trx) => {
        const result = await trx.deleteFrom('managed_credentials').where('id', '=', credentialId).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw notFound(`Managed credential ${credentialId} does not exist`);
        await trx.deleteFrom('managed_service_credentials').where('credential_id', '=', credentialId).execute();
      });
      return {};
    },

    // A new password, and a new username or none (an omitted username is removed: the pair is
    // replaced as a whole).
    setManagedCredentialSecret: async (ctx) => {
      const { credentialId } = ctx.params;
      const { username, password } = ctx.body;
      await credentialOrNotFound(ctx.db, credentialId);
      const [passwordHash, usernameHash] = await Promise.all([hashSecret(password), username === undefined ? null : hashSecret(username)]);
      await ctx.write(async (trx) => {
        const result = await trx.updateTable('managed_credentials')
          .set({ password_hash: passwordHash, username_hash: usernameHash, updated: ctx.clock.now() })
          .where('id', '=', credentialId).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw notFound(`Managed credential ${credentialId} does not exist`);
      });
      return {};
    },

    // One key per account, made on first read; of two first reads at once, the first insert wins.
    getManagedSshKey: async (ctx) => {
      const existing = await ctx.db.selectFrom('managed_ssh_key').select('ssh_key').where('slot', '=', 1).executeTakeFirst();
      if (existing) return { ssh_key: existing.ssh_key };
      const row = await ctx.write(async (trx) => {
        await trx.insertInto('managed_ssh_key').values({ slot: 1, ssh_key: newSshPublicKey() }).onConflict((oc) => oc.column('slot').doNothing()).execute();
        return trx.selectFrom('managed_ssh_key').select('ssh_key').where('slot', '=', 1).executeTakeFirstOrThrow();
      });
      return { ssh_key: row.ssh_key };
    },

    listManagedIssues: cachedPages(async (ctx) => paginate(ctx.db, ctx.db.selectFrom('managed_issues').selectAll().orderBy('id'), ctx.query, (rows) => rows.map((row) => toIssue(row, specOf(ctx.operation).basePath)))),

    getManagedIssue: async (ctx) => {
      const { issueId } = ctx.params;
      const row = await ctx.db.selectFrom('managed_issues').selectAll().where('id', '=', issueId).executeTakeFirst();
      if (!row) throw notFound(`Managed issue ${issueId} does not exist`);
      return toIssue(row, specOf(ctx.operation).basePath);
    },

    listManagedServices: cachedPages(async (ctx) => paginate(ctx.db, ctx.db.selectFrom('managed_services').selectAll().orderBy('id'), ctx.query, (rows) => toServices(ctx.db, rows, ctx.clock.now()))),

    // Monitoring starts: `pending` until the first check, the clock's transition time, then `ok`.
    // The schema decides when `region` is required; here it must name a region, and every
    // credential must exist.
    createManagedService: async (ctx) => {
      const { address, body, consultation_group: group, credentials = [], label, notes, region, service_type: serviceType, timeout } = ctx.body;
      if (region !== undefined && !ctx.catalogue.region(region)) throw badRequest(`Region ${region} does not exist`, 'region');
      const row = await ctx.write(async (trx) => {
        const found = credentials.length ? await trx.selectFrom('managed_credentials').select('id').where('id', 'in', credentials).execute() : [];
        const known = new Set(found.map((c) => c.id));
        const missing = credentials.findIndex((id) => !known.has(id));
        if (missing >= 0) throw badRequest(`Managed credential ${credentials[missing]} does not exist`, `credentials.${missing}`);
        const now = ctx.clock.now();
        const created = await trx.insertInto('managed_services').values({
          address, body: body ?? null, consultation_group: group ?? '', label, notes: notes ?? null, region: region ?? null,
          service_type: serviceType, timeout, ...transition(ctx.clock, 'pending', 'ok'), created: now, updated: now,
        }).returningAll().executeTakeFirstOrThrow();
        if (credentials.length) await trx.insertInto('managed_service_credentials').values(credentials.map((id) => ({ service_id: created.id, credential_id: id }))).execute();
        return created;
      });
      const [service] = await toServices(ctx.db, [row], ctx.clock.now());
      return service!;
    },

    // One entry per instance of the Compute area, in its order.
    listManagedComputeSettings: async (ctx) => {
      const { page, size, offset } = pageBounds(ctx.query);
      const { items, total } = await ctx.services.computes.page(ctx.db, offset, size);
      const ids = items.map((i) => i.id);
      const rows = ids.length ? await ctx.db.selectFrom('managed_compute_settings').selectAll().where('compute_id', 'in', ids).execute() : [];
      const byId = new Map(rows.map((r) => [r.compute_id, r]));
      return { data: items.map((i) => toComputeSettings(i, byId.get(i.id))), page, pages: pageCount(total, size), results: total };
    },

    getManagedComputeSettings: async (ctx) => {
      const instance = await instanceOrNotFound(ctx, ctx.params.computeId);
      const row = await ctx.db.selectFrom('managed_compute_settings').selectAll().where('compute_id', '=', instance.id).executeTakeFirst();
      return toComputeSettings(instance, row);
    },

    // Settings left out keep their value: one upsert that sets only the fields given.
    updateManagedComputeSettings: async (ctx) => {
      const instance = await instanceOrNotFound(ctx, ctx.params.computeId);
      const ssh = ctx.body?.ssh ?? {};
      const changes = {
        ...(ssh.access != null ? { access: ssh.access ? 1 : 0 } : {}),
        ...(ssh.user != null ? { ssh_user: ssh.user } : {}),
        ...(ssh.ip != null ? { ip: ssh.ip } : {}),
        ...(ssh.port != null ? { port: ssh.port } : {}),
      };
      const row = await ctx.write(async (trx) => {
        if (Object.keys(changes).length) {
          await trx.insertInto('managed_compute_settings').values({ compute_id: instance.id, access: null, ssh_user: null, ip: null, port: null, ...changes })
            .onConflict((oc) => oc.column('compute_id').doUpdateSet(changes)).execute();
        }
        return trx.selectFrom('managed_compute_settings').selectAll().where('compute_id', '=', instance.id).executeTakeFirst();
      });
      return toComputeSettings(instance, row);
    },
  }),
});
