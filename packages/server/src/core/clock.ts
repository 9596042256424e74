// Time. States the real service reaches later (a volume `creating` → `active`) advance on a clock:
// a row keeps its state, the next one and when it moves (`status`, `next_status`,
// `transition_at`), and every read settles it against the current time. Nothing runs in the
// background, so the state survives a restart and two processes on one PostgreSQL agree (they
// share the wall clock). `TRANSITION_MS` says how long such a state lasts (0: at once).
import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';

export interface Clock {
  /** Epoch milliseconds. Tests may move it. */
  now(): number;
  /** How long a transitional state lasts, in milliseconds. */
  transitionMs: number;
}

export function systemClock(transitionMs: number): Clock {
  return { now: () => Date.now(), transitionMs };
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** `2018-01-01T`: the date of a day since the epoch (days to civil date, after H. Hinnant). */
function datePart(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T`;
}

// The last day written: the times of a page mostly fall on a few days.
let lastDay = NaN;
let lastDate = '';

/**
 * `2018-01-01T00:01:01`: ISO 8601 in UTC without zone designator, as the API writes times. Written
 * with integer arithmetic: lists format two per row, and a Date object and `toISOString` cost
 * several times more. Years 0..9999.
 */
export function timestamp(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86400);
  if (days !== lastDay) {
    lastDate = datePart(days);
    lastDay = days;
  }
  const inDay = seconds - days * 86400;
  const hours = Math.floor(inDay / 3600);
  const minutes = Math.floor((inDay - hours * 3600) / 60);
  return `${lastDate}${two(hours)}:${two(minutes)}:${two(inDay - hours * 3600 - minutes * 60)}`;
}

export interface StateColumns<S extends string = string> {
  status: S;
  next_status: S | null;
  transition_at: number | null;
}

/** The state a row is in at `now`. */
export function settle<S extends string>(row: StateColumns<S>, now: number): S {
  return row.transition_at !== null && row.next_status !== null && row.transition_at <= now ? row.next_status : row.status;
}

/** Columns that put a row in `from` now and move it to `to` after the clock's transition time. */
export function transition<S extends string>(clock: Clock, from: S, to: S): StateColumns<S> {
  return { status: from, next_status: to, transition_at: clock.now() + clock.transitionMs };
}

/** Columns of a state that stays. */
export function steady<S extends string>(status: S): StateColumns<S> {
  return { status, next_status: null, transition_at: null };
}

/**
 * A SQL condition "the row is in `status` at `now`", for conditional updates that must not race:
 * `UPDATE … WHERE id = ? AND <inState>` changes nothing when another request got there first.
 */
export function inState(status: string, now: number): Expression<SqlBool> {
  return sql<SqlBool>`(case when transition_at is not null and next_status is not null and transition_at <= ${now} then next_status else status end) = ${status}`;
}
