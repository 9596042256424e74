// Regions: the read-only catalogue of data center regions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/core/catalogue.js';
import { startTestServer } from '../harness/harness.js';
import type { TestServer } from '../harness/harness.js';

const catalogue = loadCatalogue();
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ name: 'regions' });
});
afterAll(() => t?.close());

describe('regions', () => {
  it('the regions list is the catalogue, without a token', async () => {
    const answer = await t.as(null).get('/regions');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: catalogue.regions, page: 1, pages: 1, results: catalogue.regions.length });
  });

  it('the regions list pages like every list', async () => {
    const answer = await t.as(null).get('/regions', { query: { page: 2, page_size: 25 } });
    expect(answer.body).toEqual({ data: [], page: 2, pages: 1, results: catalogue.regions.length });
    expect((await t.as(null).get('/regions', { query: { page_size: 5 } })).status).toBe(400);
  });

  it('a region is shown by its id, without a token', async () => {
    const answer = await t.as(null).get('/regions/eu-central');
    expect(answer.body).toEqual(catalogue.region('eu-central'));
  });

  it('a region that does not exist answers 404', async () => {
    const answer = await t.as(null).get('/regions/atlantis');
    expect(answer.status).toBe(404);
    expect(answer.body.errors[0].reason).toMatch(/atlantis/);
  });
});
