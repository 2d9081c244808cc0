import { PortalController } from './portal.controller.js';
import { PortalService } from './portal.service.js';

/** The merchant portal's API, registered in PanelApiModule beside the operators' panel. */
export const PORTAL_CONTROLLERS = [PortalController];
export const PORTAL_PROVIDERS = [PortalService];
