// The read-only catalogues (regions, public images, kernels, Object Storage clusters), loaded once
// from data/catalogue.json. The spec's examples are checked against this file
// (test/core/catalogue.test.ts), so the mock and the server show the same regions and images.
import type { components } from '@cloudapi/types';
import data from '../../data/catalogue.json' with { type: 'json' };

type Schemas = components['schemas'];

export interface Catalogue {
  regions: readonly Schemas['Region'][];
  images: readonly Schemas['Image'][];
  kernels: readonly Schemas['ComputeKernel'][];
  clusters: readonly Schemas['Cluster'][];
  region(id: string): Schemas['Region'] | undefined;
  image(id: string): Schemas['Image'] | undefined;
  kernel(id: string): Schemas['ComputeKernel'] | undefined;
  cluster(id: string): Schemas['Cluster'] | undefined;
}

const byId = <T extends { id: string }>(items: readonly T[]) => {
  const map = new Map(items.map((item) => [item.id, item]));
  return (id: string) => map.get(id);
};

export function loadCatalogue(): Catalogue {
  const regions = data.regions as Schemas['Region'][];
  const images = data.images as Schemas['Image'][];
  const kernels = data.kernels as Schemas['ComputeKernel'][];
  const clusters = data.clusters as Schemas['Cluster'][];
  return { regions, images, kernels, clusters, region: byId(regions), image: byId(images), kernel: byId(kernels), cluster: byId(clusters) };
}
