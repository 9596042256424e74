// The path of better-sqlite3 12, as this package resolves it: @cloudapi/server loads the driver
// (and its checkpoint worker loads it again) by this path, wherever npm placed the module.
'use strict';

exports.driverPath = require.resolve('better-sqlite3');
