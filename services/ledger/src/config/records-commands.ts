import { ChangeProviderHandler } from './change-provider.handler.js';
import { InviteMerchantUserHandler } from './invite-merchant-user.handler.js';
import { RecordCallbackRecoveryHandler } from './record-callback-recovery.handler.js';
import { SetProviderCallbackUrlsHandler } from './set-provider-callback-urls.handler.js';
import { DeleteMerchantHandler } from './delete-merchant.handler.js';
import { DeleteProviderHandler } from './delete-provider.handler.js';
import { RecordSignInHandler } from './record-sign-in.handler.js';
import { EndProviderSecretOverlapHandler, RotateProviderSecretHandler } from './rotate-provider-secret.handler.js';
import { RevealProviderSecretHandler } from './reveal-provider-secret.handler.js';
import { SetMerchantActiveHandler } from './set-merchant-active.handler.js';
import { UpdateMerchantProvidersHandler } from './update-merchant-providers.handler.js';
import { UpdateOperatorHandler } from './update-operator.handler.js';

/** The back-office record commands (see record-streams.ts), one handler per file. */
export const RECORDS_COMMAND_HANDLERS = [
  RecordSignInHandler,
  SetMerchantActiveHandler,
  DeleteMerchantHandler,
  UpdateMerchantProvidersHandler,
  ChangeProviderHandler,
  DeleteProviderHandler,
  RevealProviderSecretHandler,
  RotateProviderSecretHandler,
  EndProviderSecretOverlapHandler,
  UpdateOperatorHandler,
  InviteMerchantUserHandler,
  RecordCallbackRecoveryHandler,
  SetProviderCallbackUrlsHandler,
];
