export * from './risk-events.js';
export * from './risk-commands.js';
export * from './risk-panel.js';
