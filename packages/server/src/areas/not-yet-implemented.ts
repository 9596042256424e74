// Operations of the bundle that no area implements yet: each answers 501 with an ErrorResponse
// saying so. test/core/coverage.test.ts checks that this list is exactly the operations of the
// bundle tags no area implements. When you build an area, delete its block here (keep the blank
// lines between blocks, so that areas built in parallel merge cleanly).
export const NOT_YET_IMPLEMENTED: Record<string, string> = {

  // Compute (part 3)
  listComputeInstances: 'Compute',
  createComputeInstance: 'Compute',
  getComputeInstance: 'Compute',
  updateComputeInstance: 'Compute',
  deleteComputeInstance: 'Compute',
  listComputeBackups: 'Compute',
  createComputeSnapshot: 'Compute',
  cancelComputeBackups: 'Compute',
  enableComputeBackups: 'Compute',
  getComputeBackup: 'Compute',
  restoreComputeBackup: 'Compute',
  bootComputeInstance: 'Compute',
  cloneComputeInstance: 'Compute',
  listComputeConfigs: 'Compute',
  createComputeConfig: 'Compute',
  getComputeConfig: 'Compute',
  updateComputeConfig: 'Compute',
  deleteComputeConfig: 'Compute',
  rescueComputeInstance: 'Compute',
  resizeComputeInstance: 'Compute',
  shutDownComputeInstance: 'Compute',
  getComputeStats: 'Compute',
  getComputeStatsByMonth: 'Compute',
  getComputeTransfer: 'Compute',
  getComputeTransferByMonth: 'Compute',
  listComputeVolumes: 'Compute',
  listComputeKernels: 'Compute',
  getComputeKernel: 'Compute',
};
