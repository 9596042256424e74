// What the contract run (test/core/contract.test.ts) needs for Compute: nothing. The spec's
// examples name disks (`disk_id: 25674`) that no operation creates or lists on its own; the kit
// reads the instance's profiles (`listComputeConfigs`) for the disks this server made and sends
// those instead, so profile, rescue, clone and image capture examples address real disks.
export const waivers = {};
