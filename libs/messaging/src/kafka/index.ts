export * from './kafka-transport.options.js';
export * from './instance-reply.assigner.js';
export * from './reply-readiness.js';
export * from './kafka-topics.js';
export * from './predecessor-takeover.js';
export * from './dead-member-sweep.js';
