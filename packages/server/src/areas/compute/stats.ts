// Statistics and transfer of an instance. This server runs no machines, so the series are
// generated: zero before the instance existed, a steady small load after, one point an hour for
// the past 24 hours and one a day for a month.
import type { components } from '@cloudapi/types';
import { badRequest } from '../../core/errors.js';
import { specsOf } from './store.js';
import type { InstanceRow } from './store.js';

type Stats = components['schemas']['ComputeStats'];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function series(from: number, to: number, step: number, created: number, scale: number): [number, number][] {
  const points: [number, number][] = [];
  for (let t = from; t <= to; t += step) points.push([t, t < created ? 0 : scale * (1 + ((t / step) % 7)) / 8]);
  return points;
}

function statsBetween(row: InstanceRow, from: number, to: number, step: number, period: string): Stats {
  const s = (scale: number) => series(from, to, step, row.created, scale);
  const net = () => ({ in: s(2000), out: s(1000), private_in: s(100), private_out: s(100) });
  return { title: `${row.label} (${row.id}), ${period}`, data: { cpu: s(10), io: { io: s(5), swap: s(1) }, netv4: net(), netv6: net() } };
}

/** A month of statistics or transfer must be in the past or the current one: a future month is a 400. */
function requirePastOrCurrent(now: number, month: { year: number; month: number }): 'past' | 'current' {
  const today = new Date(now);
  const [year, current] = [today.getUTCFullYear(), today.getUTCMonth() + 1];
  if (month.year > year) throw badRequest(`Only past months and the current one have statistics; ${month.year} is in the future`, 'year');
  if (month.year === year && month.month > current) throw badRequest(`Only past months and the current one have statistics; ${month.year}-${month.month} is in the future`, 'month');
  return month.year === year && month.month === current ? 'current' : 'past';
}

/** The past 24 hours, or a month: a past one, or the current one (then the past 30 days). */
export function statsOf(row: InstanceRow, now: number, month?: { year: number; month: number }): Stats {
  if (!month) return statsBetween(row, now - DAY, now, HOUR, 'past 24 hours');
  if (requirePastOrCurrent(now, month) === 'current') return statsBetween(row, now - 30 * DAY, now, DAY, 'past 30 days');
  const start = Date.UTC(month.year, month.month - 1, 1);
  return statsBetween(row, start, Date.UTC(month.year, month.month, 1) - DAY, DAY, `${month.year}-${String(month.month).padStart(2, '0')}`);
}

/** The current month: nothing transferred yet against the type's quota. */
export function transferOf(row: InstanceRow) {
  return { used: 0, quota: specsOf(row.type).transfer, billable: 0 };
}

/** A given month, past or current: nothing transferred (no machine runs here). */
export function transferOfMonth(now: number, month: { year: number; month: number }) {
  requirePastOrCurrent(now, month);
  return { bytes_in: 0, bytes_out: 0, bytes_total: 0 };
}
