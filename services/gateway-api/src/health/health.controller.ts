import { Controller, Get } from '@nestjs/common';

const startedAtMs = Date.now();
export const SERVICE_VERSION = '0.1.0';

/** GET / and GET /api: liveness of the gateway (contract "health response"). */
@Controller()
export class HealthController {
  @Get(['', 'api'])
  health() {
    return {
      status: 'ok',
      service: 'transfergate',
      version: SERVICE_VERSION,
      uptimeSeconds: Math.floor((Date.now() - startedAtMs) / 1000),
    };
  }
}
