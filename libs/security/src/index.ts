export * from './secret-box.js';
export * from './password-hash.js';
export * from './ip-allow-list.js';
export * from './egress-policy.js';
export * from './personal-data/index.js';
