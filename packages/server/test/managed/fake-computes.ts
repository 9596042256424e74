// A stand-in for the Compute area's directory (src/core/services.ts), for the tests of areas that
// ask it about instances while the Compute area is not part of the server: two instances; and
// the helpers those tests share.
import { expect } from 'vitest';
import * as areas from '../../src/areas/index.js';
import { defineArea } from '../../src/core/area.js';
import type { ComputeDirectory, InstanceSummary } from '../../src/core/services.js';
import { startTestServer } from '../harness/harness.js';
import type { Answer, TestClock, TestServer } from '../harness/harness.js';

export const INSTANCES: InstanceSummary[] = [
  { id: 123, label: 'web-1', region: 'us-east', group: 'web', ipv4: ['192.0.2.10'] },
  { id: 124, label: 'db-1', region: 'us-east', group: 'database', ipv4: ['192.0.2.11', '198.51.100.4'] },
];

const byId = new Map(INSTANCES.map((i) => [i.id, i]));

const fakeComputes: ComputeDirectory = {
  instance: async (_db, id) => byId.get(id),
  page: async (_db, offset, limit) => ({ items: INSTANCES.slice(offset, offset + limit), total: INSTANCES.length }),
  labels: async (_db, ids) => new Map(ids.filter((id) => byId.has(id)).map((id) => [id, byId.get(id)!.label])),
  placeVolume: async () => ({ error: 'no config' }),
  disk: async () => undefined,
};

/** An area with no operations that provides the two instances above. */
export const fakeComputeArea = defineArea({ name: 'fake_compute', tags: [], handlers: {}, provides: { computes: fakeComputes } });

/** A test server with every area and the two instances above. */
export async function startServerWithInstances(name: string, clock: TestClock): Promise<TestServer> {
  return startTestServer({ name, clock, areas: [...Object.values(areas), fakeComputeArea] });
}

/** The body of an answer that must be a 200 (the answer's text explains a failure). */
export async function ok(answer: Promise<Answer>): Promise<any> {
  const a = await answer;
  expect(a.status, a.text).toBe(200);
  return a.body;
}
