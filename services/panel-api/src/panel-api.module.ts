import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

/**
 * The panel-api service. Wired into both runtimes now so its place in the architecture is fixed; it has
 * no routes or consumers yet: its capabilities arrive with issue #4 (operator auth, RBAC, back-office records, approval actions).
 */
@Module({ imports: [CqrsModule] })
export class PanelApiModule {}
