// mocha's settings. The whole suite is the default spec only when no test file is named on the
// command line: mocha adds named files to a configured spec, so `npx mocha dist/test/x.test.js`
// would otherwise run the whole suite as well.
'use strict';
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && arg.endsWith('.js'));
module.exports = {
  spec: named ? [] : ['dist/test/**/*.test.js'],
  timeout: 120000,
  reporter: 'dist/test/support/spec-timings.js',
  require: ['dist/test/support/suite-dirs.js', 'dist/test/support/tmp.js'],
};
