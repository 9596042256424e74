// The read-only catalogues and the spec's examples agree, so the mock (which serves the examples)
// and the server show the same regions, public images, kernels and clusters: every catalogue
// entry validates against its schema; every example of such an entry in the bundle is in the
// catalogue exactly; every region, cluster, kernel and public image an example names exists.
import { describe, expect, it } from 'vitest';
import { createSchemaViews } from '@cloudapi/spec/schema-views';
import { loadCatalogue } from '../../src/core/catalogue.js';
import { loadBundle } from '@cloudapi/spec/bundle';
import { examples as examplesOf, objectsIn } from '../harness/examples.js';

const document = loadBundle();
const views = createSchemaViews(document);
const catalogue = loadCatalogue();
const examples = () => examplesOf(document);
const schema = (name: string) => `#/components/schemas/${name}`;
const KINDS = [
  { name: 'Region', entries: catalogue.regions, find: catalogue.region },
  { name: 'Image', entries: catalogue.images, find: catalogue.image, only: (v: any) => v.is_public === true },
  { name: 'ComputeKernel', entries: catalogue.kernels, find: catalogue.kernel },
  { name: 'Cluster', entries: catalogue.clusters, find: catalogue.cluster },
] as const;

describe('catalogue', () => {
  for (const kind of KINDS) {
    it(`every ${kind.name} of the catalogue validates against the spec's ${kind.name} schema`, () => {
      expect(kind.entries.length).toBeGreaterThan(0);
      for (const entry of kind.entries) {
        const result = views.validate('response', schema(kind.name), entry);
        expect(result.errors, `${(entry as any).id}`).toEqual([]);
        expect(views.undeclared('response', schema(kind.name), entry), `${(entry as any).id}`).toEqual([]);
      }
    });
  }

  it('every example of a region, public image, kernel or cluster in the bundle is in the catalogue, identical', () => {
    let checked = 0;
    for (const { where, value } of examples()) {
      for (const object of objectsIn(value)) {
        for (const kind of KINDS) {
          if (typeof object.id !== 'string' || !views.validate('response', schema(kind.name), object).valid) continue;
          if ('only' in kind && !kind.only(object)) continue;
          expect(kind.find(object.id), `${where}: ${kind.name} ${object.id} is not in data/catalogue.json`).toEqual(object);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(4);
  });

  it('every region, cluster, kernel and public image an example names exists in the catalogue', () => {
    const references: [string, (id: string) => unknown][] = [
      ['region', catalogue.region], ['regionId', catalogue.region], ['cluster', catalogue.cluster], ['clusterId', catalogue.cluster],
      ['kernel', catalogue.kernel], ['kernelId', catalogue.kernel], ['image', catalogue.image], ['imageId', catalogue.image],
    ];
    let checked = 0;
    for (const { where, value } of examples()) {
      for (const object of objectsIn(value)) {
        for (const [field, find] of references) {
          const id = object[field];
          if (typeof id !== 'string' || ((field === 'image' || field === 'imageId') && !id.startsWith('compute/'))) continue;
          expect(find(id), `${where}: ${field} "${id}" is not in data/catalogue.json`).toBeDefined();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
