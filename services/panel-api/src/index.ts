export * from './panel-api.module.js';
export * from './panel.settings.js';
export * from './auth/permissions.js';
export * from './web/panel-web.js';
