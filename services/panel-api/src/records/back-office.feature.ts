import { AuditController } from '../audit/audit.controller.js';
import { ConfigController } from '../config/config.controller.js';
import { ApiSettingsController } from '../settings/api-settings.controller.js';
import { ApiSettingsService } from '../settings/api-settings.service.js';
import { AccessController } from './access.controller.js';
import { AccessService } from './access.service.js';
import { DirectoryController } from './directory.controller.js';
import { DirectoryService } from './directory.service.js';
import { MerchantsController } from './merchants.controller.js';
import { MerchantsService } from './merchants.service.js';
import { ProvidersController } from './providers.controller.js';
import { ProvidersService } from './providers.service.js';
import { RecordBus } from './record-commands.js';

/** The back office (records, API settings, public config reads, audit), registered in PanelApiModule. */
export const BACK_OFFICE_CONTROLLERS = [
  MerchantsController,
  ProvidersController,
  DirectoryController,
  AccessController,
  ApiSettingsController,
  ConfigController,
  AuditController,
];
export const BACK_OFFICE_PROVIDERS = [
  RecordBus,
  MerchantsService,
  ProvidersService,
  DirectoryService,
  AccessService,
  ApiSettingsService,
];
