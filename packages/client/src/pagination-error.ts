// The error of a walk over a list's pages that stopped before the list's end: the server repeated
// a page it had answered (it ignores `page`), or `maxPages` pages were read. The items the caller
// got are then only part of the list, so `listAll` and `paginate` say so rather than resolve
// quietly; a caller that passes `onStop` has taken charge of this and gets no error.
import type { PaginationStop } from './types.js';

/** The reasons a walk stops with data missing. */
export type IncompleteReason = Extract<PaginationStop['reason'], 'repeated-page' | 'max-pages'>;

const WHY: Record<IncompleteReason, string> = {
  'repeated-page': 'the server answered a page it had answered before (it ignores `page`)',
  'max-pages': 'maxPages pages were read before the last one',
};

/** Thrown by `listAll` and `paginate` when the list was not read to its end (and no `onStop` was given). */
export class PaginationError<Item = unknown> extends Error {
  override readonly name = 'PaginationError';
  /** Why the walk stopped: `repeated-page` or `max-pages`. */
  declare readonly reason: IncompleteReason;
  /** How many pages were requested (the repeated one included). */
  declare readonly pages: number;
  /** How many items were read before the stop. */
  declare readonly itemCount: number;
  /** The items read before the stop, from `listAll`; undefined from `paginate`, which already yielded them. */
  declare readonly items: Item[] | undefined;
  /** The list operation: `GET /volumes`. */
  declare readonly operation: string;

  constructor(operation: string, reason: IncompleteReason, pages: number, itemCount: number, items?: Item[]) {
    super(`${operation}: the walk stopped after ${pages} page${pages === 1 ? '' : 's'} and ${itemCount} item${itemCount === 1 ? '' : 's'} (${reason}): ${WHY[reason]}; the list is incomplete. Pass onStop to accept a partial list.`);
    Object.assign(this, { reason, pages, itemCount, items, operation });
  }
}

/** True for a `PaginationError`, also one from another copy of this package. */
export const isPaginationError = (value: unknown): value is PaginationError => value instanceof Error && value.name === 'PaginationError';

/** Throws when a walk that stopped for `stop` left data unread and the caller gave no `onStop`. */
export function throwIfIncomplete<Item>(operation: string, stop: PaginationStop, hasOnStop: boolean, itemCount: number, items?: Item[]): void {
  if (hasOnStop || (stop.reason !== 'repeated-page' && stop.reason !== 'max-pages')) return;
  throw new PaginationError(operation, stop.reason, stop.pages, itemCount, items);
}
