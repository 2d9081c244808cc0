#!/usr/bin/env node
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import * as contracts from '@transfergate/contracts';
import { openDatabase } from '@transfergate/event-store';
import { LEDGER_PROJECTION } from '@transfergate/ledger';
import { messageCatalogOf, RemoteBusModule, transportConfigFrom } from '@transfergate/messaging';
import { placeholderProblems, waitForCheckpoint } from '@transfergate/runtime';
import { applyBootstrap, BootstrapFileError, ensureFirstAdmin, readBootstrapFile } from './provisioning/provisioner.js';

/** How long to wait for the ledger's projection to include what was provisioned. */
const SETTLE_TIMEOUT_MS = 60_000;

/**
 * `npm run provision -- --bootstrap file.json` in distributed mode: applies a bootstrap file (and
 * creates the first admin) through the ledger process over the transport, exactly as the embedded
 * start does in-process, then waits until the ledger's read models include it. Safe to run again:
 * every configuration command appends only what differs. Env: DATABASE_URL, DATABASE_SCHEMA,
 * TRANSPORT, NATS_URL, MESSAGING_PREFIX, COMMAND_TIMEOUT_MS, ADMIN_PASSWORD.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { bootstrap: { type: 'string' } }, allowPositionals: false });
  const path = values.bootstrap ?? process.env.TRANSFERGATE_BOOTSTRAP;
  const file = path ? readBootstrapFile(path) : undefined;
  if (!process.env.DATABASE_URL) throw new BootstrapFileError('DATABASE_URL is required');
  const placeholders = placeholderProblems(process.env);
  if (placeholders.length > 0) throw new BootstrapFileError(`invalid configuration: ${placeholders.join('; ')}`);
  const transport = transportConfigFrom(process.env);
  const db = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    ...(process.env.DATABASE_SCHEMA ? { schema: process.env.DATABASE_SCHEMA } : {}),
  });
  // No handlers here: every configuration command is forwarded to the ledger. Provisioning is an operator action.
  @Module({
    imports: [
      CqrsModule,
      RemoteBusModule.forRoot({ service: 'panel-api', transport, catalog: messageCatalogOf(contracts) }),
    ],
  })
  class ProvisionModule {}
  const context = await NestFactory.createApplicationContext(ProvisionModule, { logger: ['error', 'warn'] });
  try {
    const commands = context.get(CommandBus);
    if (file) {
      const summary = await applyBootstrap(commands, db, file);
      console.log(`provisioning: ${summary.changed} records changed, ${summary.unchanged} already as declared`);
    }
    const admin = await ensureFirstAdmin(commands, db, process.env.ADMIN_PASSWORD || undefined);
    if (admin.generatedPassword) {
      console.log(`First start: operator "admin" created with password ${admin.generatedPassword} (shown once)`);
    }
    await waitForCheckpoint(db, LEDGER_PROJECTION, SETTLE_TIMEOUT_MS);
  } finally {
    await context.close();
    await db.close();
  }
}

main().catch((error) => {
  console.error(`provisioning failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error instanceof BootstrapFileError ? 2 : 1);
});
