// What the contract run (test/core/contract.test.ts) needs for Compute. The kit's first image
// deploy gets the disks the spec's examples name (disk ids start at 25674), so profile, rescue,
// clone and image capture examples address real disks. Two operations cannot be proven by the
// kit because of the order it runs in, not because of another area:
const restoreFirst = 'the kit runs restoreComputeBackup (example "overwrite": overwrite true, onto the instance it created) before it updates and deletes that instance\'s config; the restore deletes every config of the target first, as rule 4 says, so the config the kit then addresses is gone (404). Tested in test/compute/compute.test.ts';
export const waivers = {
  updateComputeConfig: restoreFirst,
  deleteComputeConfig: restoreFirst,
  // Not a flaw: the kit sends account-wide destructive actions only when allowed, and this run
  // does not allow them (with `--allow-destructive` the kit proves it).
  cancelComputeBackups: 'an account-wide destructive action (it deletes every backup): the kit runs it only with allowDestructive, which test/core/contract.test.ts does not pass',
};
