// What the target is, and so what the run may do to it: the Prism mock (keeps no state, checks no
// scopes: everything may run, the stateful and scope checks cannot), an implementation on a
// loopback address (may be changed), or any other address (read-only unless --allow-writes).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { send, type TransportOptions } from './http.js';

/** What the target is: the Prism mock or an implementation of the API. */
export type TargetKind = 'mock' | 'implementation';

export interface Detection { target: TargetKind | null; reason: string }

/**
 * Whether the target is the Prism mock: Prism answers a path the spec does not have with its own
 * problem body (`https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR`) and flags refused
 * requests in an `sl-violations` header; an implementation does neither.
 */
export async function detectTarget(baseUrl: string, transport: TransportOptions): Promise<Detection> {
  const probe = `${baseUrl.replace(/\/+$/, '')}/cloudapi-contract-probe-${Date.now()}`;
  const answer = await send({ method: 'GET', url: probe, headers: [['accept', 'application/json']] }, transport);
  if (answer.error && answer.status === undefined) return { target: null, reason: `no answer from ${baseUrl}: ${answer.error}` };
  const json = answer.json as { type?: unknown } | undefined;
  const prism = (json && typeof json.type === 'string' && json.type.includes('stoplight.io/prism')) || answer.headers['sl-violations'] !== undefined;
  return prism
    ? { target: 'mock', reason: `GET ${probe} was answered by Prism (its error body and headers)` }
    : { target: 'implementation', reason: `GET ${probe} was not answered by Prism (answered ${answer.status})` };
}

const loopbackAddress = (address: string): boolean => {
  if (isIP(address) === 4) return address.startsWith('127.');
  if (isIP(address) === 6) return address === '::1' || /^::ffff:127\./i.test(address);
  return false;
};

/** Whether every address the base URL's host resolves to is a loopback address. */
export async function isLoopback(baseUrl: string): Promise<boolean> {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return loopbackAddress(host);
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.length > 0 && addresses.every((a) => loopbackAddress(a.address));
  } catch {
    return false;
  }
}

export interface Safety {
  loopback: boolean;
  writes: boolean;
  /** every destructive action runs (the mock, --allow-destructive); otherwise only those that destroy nothing but the run's own */
  destructive: boolean;
  reason: string;
}

export function safetyOf(target: TargetKind, loopback: boolean, allowWrites: boolean, allowDestructive: boolean): Safety {
  if (target === 'mock') return { loopback, writes: true, destructive: true, reason: 'the mock keeps no state: every operation runs' };
  const writes = loopback || allowWrites;
  const why = loopback ? 'a loopback address' : allowWrites ? '--allow-writes' : 'not a loopback address (or --remote) and no --allow-writes';
  const destructive = !writes ? 'destructive ones neither'
    : allowDestructive ? 'destructive ones too (--allow-destructive)'
      : 'destructive ones only where they destroy nothing this run did not create (--allow-destructive runs them all)';
  return {
    loopback,
    writes,
    destructive: writes && allowDestructive,
    reason: `${writes ? 'state-changing operations run' : 'state-changing operations do not run'} (${why}); ${destructive}`,
  };
}
