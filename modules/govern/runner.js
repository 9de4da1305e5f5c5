// govern's runner kit (src/runners/kit/index.ts), for runners: govern puts this directory's parent on the
// NODE_PATH of every runner it starts, so that require('govern/runner') finds the kit of the govern
// that runs them, from a checkout and when installed alike (docs/runners.md).
'use strict';
module.exports = require('../../dist/src/runners/kit/index.js');
