import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

/** A statement upload's own limit: a day of a busy account in camt.053 is a few MB, far above JSON bodies. */
export const MAX_STATEMENT_UPLOAD_BYTES = 32 * 1024 * 1024;

/**
 * Statement files arrive as raw bytes (`curl --data-binary @file`, the panel's fetch with the File):
 * no base64 or multipart to decode, and only this content type gets the larger limit.
 */
@Injectable()
export class StatementUploadParser implements OnModuleInit {
  constructor(private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify || fastify.hasContentTypeParser('application/octet-stream')) return;
    fastify.addContentTypeParser(
      'application/octet-stream',
      { parseAs: 'buffer', bodyLimit: MAX_STATEMENT_UPLOAD_BYTES },
      (_request, body, done) => done(null, body),
    );
  }
}
