// Compute: instances, their disks and configuration profiles, backups and snapshots, clones,
// actions on the clock (boot, shutdown, rescue, resize, restore), statistics, transfer, kernels;
// and the directory other areas ask about instances (core/services.ts).
import { defineArea } from '../../core/area.js';
import { backupHandlers } from './backups.js';
import { configHandlers } from './configs.js';
import { computeDirectory } from './directory.js';
import { instanceHandlers } from './instances.js';
import { migrations } from './migrations.js';
import { instanceStore } from './store.js';

export default defineArea({
  name: 'compute',
  tags: ['Compute'],
  migrations,
  taggables: [instanceStore.taggable],
  provides: (services) => ({ computes: computeDirectory(services) }),
  handlers: { ...instanceHandlers, ...configHandlers, ...backupHandlers },
});
