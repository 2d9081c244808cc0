#!/usr/bin/env node
import { runServiceMain } from '@transfergate/runtime';
import { WebhookIngestModule } from './webhook-ingest.module.js';

/** Incoming upstream webhooks as their own process (distributed mode): each one a ledger command over the transport. */
runServiceMain({ service: 'webhook-ingest', module: WebhookIngestModule });
