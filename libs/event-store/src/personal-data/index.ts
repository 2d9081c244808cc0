export * from './subject-keys.js';
export * from './personal-data-codec.js';
export * from './encrypt-in-place.js';
