import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

/**
 * The callback-dispatcher service. Wired into both runtimes now so its place in the architecture is fixed; it has
 * no routes or consumers yet: its capabilities arrive with issue #5 (signed callbacks with retries).
 */
@Module({ imports: [CqrsModule] })
export class CallbackDispatcherModule {}
