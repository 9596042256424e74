// What the contract run (test/core/contract.test.ts) needs for Compute. The kit's first image
// deploy gets the disks the spec's examples name (disk ids start at 25674), so profiles, rescue
// and clone examples address real disks. Two operations cannot be proven by the kit, because of
// how it runs, not because of another area:
export const waivers = {
  getComputeBackup: 'the kit reads the snapshot its first createComputeSnapshot made after sending more (generated) snapshot creates, and each new snapshot deletes the existing one, as the requirements say: the backup it addresses is gone (404)',
  restoreComputeBackup: 'it restores the snapshot the kit made first, which the kit\'s later generated snapshot creates have replaced (404); the restore itself is tested in test/compute',
};
