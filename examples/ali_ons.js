'use strict';
// Finds ali-ons for the example scripts without a NODE_PATH step: next to the scripts, on
// the usual module path, or in the compatibility tests' pinned copy
// (tests/compat/node_modules, installed by scripts/install-deps.sh).
const path = require('path');

const searchPaths = [ __dirname, path.join(__dirname, '..', 'tests', 'compat') ];

function load(name) {
  let resolved;
  try {
    resolved = require.resolve(name, { paths: searchPaths });
  } catch (err) {
    console.error(`cannot find ${name}: run "bash scripts/install-deps.sh" ` +
      '(or "cd tests/compat && npm ci") first');
    process.exit(1);
  }
  return require(resolved);
}

module.exports = { load };
