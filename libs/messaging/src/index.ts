export * from './kafka/index.js';
export * from './wire-codec.js';
export * from './transport.js';
export * from './remote-bus.js';
