// The error of a walk over a list's pages that stopped before the list's end: the server repeated
// a page it had answered (it ignores `page`), or `maxPages` pages were read. The items the caller
// got are then only part of the list, so `listAll` and `paginate` say so rather than resolve
// quietly; a caller that passes `onStop` has taken charge of this and gets no error.
import type { PaginationStop } from './types.js';

/** The reasons a walk stops with data missing. */
export type IncompleteReason = Extract<PaginationStop['reason'], 'repeated-page' | 'max-pages'>;

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
    // Short: the message is part of the package's size budget.
    super(`${operation}: list incomplete (${reason}) after ${pages} pages, ${itemCount} items; pass onStop to accept it`);
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
