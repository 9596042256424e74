// Every operation of the bundle has a handler, every handler names an operation of the bundle,
// and every area implements all operations of its tags; a server started with some areas only
// answers the others' operations 501 with an ErrorResponse naming the operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as areas from '../../src/areas/index.js';
import { loadBundle } from '@cloudapi/spec/bundle';
import { describeBundle } from '../../src/core/spec.js';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

const spec = describeBundle(loadBundle());
const bundleOps = new Set(spec.operations.map((op) => op.operationId));
const handled = Object.values(areas).flatMap((area) => Object.keys(area.handlers).map((id) => ({ id, area: area.name })));

describe('handler coverage', () => {
  it('every handler names an operation of the bundle', () => {
    const unknown = handled.filter(({ id }) => !bundleOps.has(id));
    expect(unknown, 'handlers for operations the bundle does not have').toEqual([]);
  });

  it('no operation has two handlers', () => {
    const ids = handled.map(({ id }) => id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('every operation of the bundle has a handler', () => {
    const handledIds = new Set(handled.map(({ id }) => id));
    expect([...bundleOps].filter((id) => !handledIds.has(id)), 'operations with no handler').toEqual([]);
  });

  it('each area implements every operation of the tags it claims', () => {
    for (const area of Object.values(areas)) {
      const expected = area.tags.flatMap((tag) => spec.operationsByTag.get(tag) ?? []);
      expect(expected.length, `${area.name}: tags ${area.tags} have no operations in the bundle`).toBeGreaterThan(0);
      expect(Object.keys(area.handlers).sort(), area.name).toEqual(expected.sort());
    }
  });
});

describe('a server started with some areas only', () => {
  // Compute and Support without Volumes, Images and Managed: their tables do not exist, so the
  // areas that are there reach them only through services (the stand-ins: nothing exists there).
  const started = [areas.regions, areas.compute, areas.support];
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ name: 'coverage', areas: started }); });
  afterAll(() => t?.close());

  it("answers the other areas' operations 501 with an ErrorResponse naming the operation", async () => {
    const ops = spec.operations.filter((op) => !started.some((area) => area.tags.some((tag) => op.tags.includes(tag))));
    expect(ops.length).toBeGreaterThan(0);
    for (const op of ops) {
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      const answer = await t.as('full').request(op.method, path, { body: op.requestBody ? {} : undefined });
      expect(answer.status, op.operationId).toBe(501);
      expect(answer.body).toEqual({ errors: [{ reason: expect.stringContaining(`${op.operationId} (${op.method} ${op.path}) is not implemented by this server`) }] });
    }
    expect((await t.as('full').get('/regions')).status).toBe(200);
  });

  it('runs Compute and Support without the areas whose services they use', async () => {
    const api = t.as('full');
    const answer = async (status: number, call: Promise<{ status: number; body: any }>) => {
      const { status: got, body } = await call;
      expect(got, JSON.stringify(body)).toBe(status);
      return body;
    };
    const instance = await answer(200, api.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', image: 'compute/debian11', root_pass: 'correct-Horse-battery-staple-42' }));
    const configs = await answer(200, api.get(`/compute/instances/${instance.id}/configs`));
    expect(configs.results).toBe(1);
    await answer(200, api.post(`/compute/instances/${instance.id}/boot`, {}));
    // No private image and no volume exists without their areas.
    const noImage = await answer(400, api.post('/compute/instances', { region: 'us-east', type: 'g6-standard-2', image: 'private/1', root_pass: 'correct-Horse-battery-staple-42' }));
    expect(noImage.errors[0]).toEqual({ field: 'image', reason: 'Image private/1 does not exist' });
    const noVolume = await answer(400, api.post(`/compute/instances/${instance.id}/configs`, { label: 'second', devices: { sdb: { volume_id: 1 } } }));
    expect(noVolume.errors[0]).toEqual({ field: 'devices.sdb.volume_id', reason: 'Volume 1 does not exist' });
    await answer(200, api.post('/support/tickets', { summary: 'Shop is down', description: 'The shop answers 502.', managed_issue: true }));
    await answer(200, api.delete(`/compute/instances/${instance.id}`));
  });
});
