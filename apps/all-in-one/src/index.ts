export * from './create-app.js';
export * from './config/runtime-config.js';
export * from './provisioning/provisioner.js';
export * from './provisioning/bootstrap-file.js';
export * from './provisioning/demo.js';
