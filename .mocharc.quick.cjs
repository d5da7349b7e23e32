// `npm run test:quick`: the inner loop's lane, the test files that need no browser, no Redis, no
// podman and start no process (scripts/quick-lane.ts decides; CONTRIBUTING.md "Tests").
// `npm test` runs everything with .mocharc.json.
'use strict';
const { require: tsxRequire } = require('tsx/cjs/api');
const base = require('./.mocharc.json');
const { quickLane } = tsxRequire('./scripts/quick-lane.ts', __filename);

module.exports = { ...base, spec: quickLane(__dirname).files };
