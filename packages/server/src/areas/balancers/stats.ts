// A balancer's statistics over the past 24 hours. No traffic passes through this server's
// balancers, so every sample is zero; the series still have the shape and the timing the spec
// describes: one sample per 5 minutes from the balancer's creation (or from 24 hours ago), oldest
// first, time in epoch milliseconds.
import type { components } from '@cloudapi/types';
import type { BalancerRow } from './store.js';

type BalancerStats = components['schemas']['BalancerStats'];

export const SAMPLE_MS = 5 * 60_000;
const DAY_MS = 24 * 3_600_000;

export function balancerStats(balancer: BalancerRow, now: number): BalancerStats {
  const from = Math.max(balancer.created, now - DAY_MS);
  const times: number[] = [];
  for (let t = Math.ceil(from / SAMPLE_MS) * SAMPLE_MS; t <= now; t += SAMPLE_MS) times.push(t);
  const zeros = () => times.map((t): [number, number] => [t, 0]);
  return {
    title: `${balancer.label} (balancer ${balancer.id}): past 24 hours, 5-minute averages`,
    data: { connections: zeros(), traffic: { in: zeros(), out: zeros() } },
  };
}
