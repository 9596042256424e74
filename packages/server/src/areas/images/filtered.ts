// listImages with an X-Filter: public images come from the catalogue in memory, so the filter runs
// in memory over them and the account's private images (few per account) with the shared
// evaluator of @cloudapi/spec/filters; pages are counted after filtering as everywhere.
import { applyFilterInMemory } from '@cloudapi/spec/filters';
import type { HandlerContext } from '../../core/area.js';
import type { ListFilter } from '../../core/filtering/header.js';
import { paginateList } from '../../core/store/pagination.js';
import { notExpired, toImage } from './store.js';
import type { Image } from './store.js';

export async function filteredImages(ctx: HandlerContext<'listImages'>, filter: ListFilter) {
  const images: Image[] = [...ctx.catalogue.images];
  if (ctx.auth) {
    const now = ctx.clock.now();
    const rows = await ctx.db.selectFrom('images').selectAll().where(notExpired(now)).orderBy('id').execute();
    images.push(...rows.map((row) => toImage(row, now)));
  }
  return paginateList(applyFilterInMemory(images, filter.parsed, filter.spec), ctx.query);
}
