// The registry of areas: one line per area, `export { default as <area> } from './<area>/index.js';`.
// The lines waiting for the later areas are kept apart by blank lines, so that areas added in
// parallel each replace their own line and merge without conflict.
export { default as images } from './images/index.js';

export { default as regions } from './regions/index.js';

export { default as tags } from './tags/index.js';

export { default as volumes } from './volumes/index.js';

// balancers (part 2): replace this line with its export line

export { default as compute } from './compute/index.js';

// domains (part 2): replace this line with its export line

// managed (part 2): replace this line with its export line

// object-storage (part 2): replace this line with its export line

// support (part 2): replace this line with its export line
