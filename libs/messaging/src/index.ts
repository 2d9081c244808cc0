export * from './kafka/index.js';
export * from './wire-codec.js';
export * from './transport.js';
export * from './remote-bus.js';
export * from './notices/notice-channel.js';
export * from './notices/process-notices.js';
