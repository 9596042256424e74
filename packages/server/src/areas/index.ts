// The areas the server serves: one line per area, `export { default as <area> } from './<area>/index.js';`.
export { default as images } from './images/index.js';
export { default as regions } from './regions/index.js';
export { default as tags } from './tags/index.js';
export { default as volumes } from './volumes/index.js';
export { default as balancers } from './balancers/index.js';
export { default as compute } from './compute/index.js';
export { default as domains } from './domains/index.js';
export { default as managed } from './managed/index.js';
export { default as objectStorage } from './object-storage/index.js';
export { default as support } from './support/index.js';
