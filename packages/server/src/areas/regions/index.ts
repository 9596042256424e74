// Regions: the read-only list of data center regions, from the catalogue.
import { defineArea, defineHandlers } from '../../core/area.js';
import { notFound } from '../../core/errors.js';
import { paginateList } from '../../core/store/pagination.js';

export default defineArea({
  name: 'regions',
  tags: ['Regions'],
  handlers: defineHandlers({
    listRegions: async ({ catalogue, query }) => paginateList(catalogue.regions, query),
    getRegion: async ({ catalogue, params }) => {
      const region = catalogue.region(params.regionId);
      if (!region) throw notFound(`Region ${params.regionId} does not exist`);
      return region;
    },
  }),
});
