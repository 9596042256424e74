// Images: the public images of the catalogue, visible to anyone, and the account's private images
// (`private/<n>`), visible with a token: captured from a disk (`creating` → `available`) or
// uploaded (`pending_upload` → `available` once the data arrived and was processed; deleted when
// no data arrives within 24 hours). Public images cannot be changed or deleted.
import { defineArea, defineHandlers } from '../../core/area.js';
import type { HandlerContext } from '../../core/area.js';
import { settle, transition } from '../../core/clock.js';
import { badRequest, forbidden, notFound } from '../../core/errors.js';
import { forgetObject } from '../../core/permissions.js';
import type { Trx } from '../../core/store/db.js';
import { countRows, pageBounds, pageCount } from '../../core/store/pagination.js';
import { IMAGE_ENTITY, migrations, notExpired, rowIdOf, toImage, UPLOAD_PATH, UPLOAD_WINDOW_MS } from './store.js';
import type { Image, ImageRow } from './store.js';
import { toHex } from '../../platform/bytes.js';
import { platform } from '../../platform/node.js';
import { filterOf } from '../../core/filtering/header.js';
import { filteredImages } from './filtered.js';

/** The private image `private/<n>` as a row, or 404 (also when the caller has no token). */
async function privateImage(ctx: Pick<HandlerContext, 'db' | 'auth' | 'clock'>, imageId: string, trx?: Trx): Promise<ImageRow> {
  const id = rowIdOf(imageId);
  const row = id === undefined || !ctx.auth ? undefined
    : await (trx ?? ctx.db).selectFrom('images').selectAll().where('id', '=', id).where(notExpired(ctx.clock.now())).executeTakeFirst();
  if (!row) throw notFound(`Image ${imageId} does not exist`);
  return row;
}

/** Public images cannot be changed: 403 for one of the catalogue, 404 for no image at all. */
function refusePublic(ctx: Pick<HandlerContext, 'catalogue'>, imageId: string, action: string): void {
  if (imageId.startsWith('private/')) return;
  if (ctx.catalogue.image(imageId)) throw forbidden(`Image ${imageId} is a public image and cannot be ${action}`);
  throw notFound(`Image ${imageId} does not exist`);
}

export default defineArea({
  name: 'images',
  tags: ['Images'],
  migrations,
  handlers: defineHandlers({
    // Public images first (the catalogue's order), then private ones by id; private ones only
    // with a token. One page may span both: the private part is a LIMIT/OFFSET query.
    listImages: async (ctx) => {
      const filter = filterOf(ctx.query);
      if (filter) return filteredImages(ctx, filter);
      const publicImages = ctx.catalogue.images;
      const { page, size, offset } = pageBounds(ctx.query);
      const privateQuery = ctx.db.selectFrom('images').selectAll().where(notExpired(ctx.clock.now())).orderBy('id');
      const privateCount = ctx.auth ? await countRows(privateQuery) : 0;
      const results = publicImages.length + privateCount;
      const data: Image[] = publicImages.slice(offset, offset + size);
      const privateOffset = Math.max(0, offset - publicImages.length);
      const room = size - data.length;
      if (ctx.auth && room > 0 && privateOffset < privateCount) {
        const now = ctx.clock.now();
        const rows = await privateQuery.limit(room).offset(privateOffset).execute();
        data.push(...rows.map((row) => toImage(row, now)));
      }
      return { data, page, pages: pageCount(results, size), results };
    },

    getImage: async (ctx) => {
      const { imageId } = ctx.params;
      const found = ctx.catalogue.image(imageId);
      if (found) return found;
      return toImage(await privateImage(ctx, imageId), ctx.clock.now());
    },

    // A capture of an instance's disk: `creating`, then `available`. The disk comes from the
    // Compute area; without it no disk exists.
    createImage: async (ctx) => {
      const { disk_id: diskId, label, description } = ctx.body;
      const disk = await ctx.services.computes.disk(ctx.db, diskId);
      if (!disk) throw badRequest(`Disk ${diskId} does not exist`, 'disk_id');
      const row = await ctx.write(async (trx) => {
        const now = ctx.clock.now();
        const { id } = await trx.insertInto('images').values({
          label: label ?? disk.label, description: description ?? null, size: disk.size, region: null,
          created_by: ctx.auth!.userName, upload_token: null, ...transition(ctx.clock, 'creating', 'available'), created: now, updated: now,
        }).returning('id').executeTakeFirstOrThrow();
        await ctx.recordCreator(trx, IMAGE_ENTITY, `private/${id}`);
        return privateImage(ctx, `private/${id}`, trx);
      });
      return toImage(row, ctx.clock.now());
    },

    uploadImage: async (ctx) => {
      const { label, region, description } = ctx.body;
      if (!ctx.catalogue.region(region)) throw badRequest(`Region ${region} does not exist`, 'region');
      const token = toHex(platform.randomBytes(24));
      const row = await ctx.write(async (trx) => {
        const now = ctx.clock.now();
        // Uploads whose window passed are deleted for good (they were already invisible).
        await trx.deleteFrom('images').where('status', '=', 'pending_upload').where('next_status', 'is', null)
          .where('created', '<=', now - UPLOAD_WINDOW_MS).execute();
        const { id } = await trx.insertInto('images').values({
          label, description: description ?? null, size: 0, region, created_by: ctx.auth!.userName, upload_token: token,
          status: 'pending_upload', next_status: null, transition_at: null, created: now, updated: now,
        }).returning('id').executeTakeFirstOrThrow();
        await ctx.recordCreator(trx, IMAGE_ENTITY, `private/${id}`);
        return privateImage(ctx, `private/${id}`, trx);
      });
      return { image: toImage(row, ctx.clock.now()), upload_to: ctx.absoluteUrl(`${UPLOAD_PATH}/${token}`) };
    },

    // Private images only. `description: null` clears the description. `status` is accepted as
    // the spec lists it, but only the service moves an image between states: a value other
    // than the current one is a 400.
    updateImage: {
      keepNull: ['description'],
      handle: async (ctx) => {
        const { imageId } = ctx.params;
        refusePublic(ctx, imageId, 'changed');
        const { label, description, status } = ctx.body;
        const row = await ctx.write(async (trx) => {
          const current = await privateImage(ctx, imageId, trx);
          const now = ctx.clock.now();
          if (status !== undefined && status !== settle(current, now)) {
            throw badRequest(`status is set by the service as the image is processed; image ${imageId} is ${settle(current, now)}`, 'status');
          }
          await trx.updateTable('images').set({
            ...(label != null ? { label } : {}), // null: not set (only description keeps null)
            ...(description !== undefined ? { description } : {}),
            updated: now,
          }).where('id', '=', current.id).execute();
          return privateImage(ctx, imageId, trx);
        });
        return toImage(row, ctx.clock.now());
      },
    },

    deleteImage: async (ctx) => {
      const { imageId } = ctx.params;
      refusePublic(ctx, imageId, 'deleted');
      await ctx.write(async (trx) => {
        const row = await privateImage(ctx, imageId, trx);
        await trx.deleteFrom('images').where('id', '=', row.id).execute();
        await forgetObject(trx, IMAGE_ENTITY, imageId);
      });
      return {};
    },
  }),
});
