/** Where a request came from, as the events it causes record it (their metadata's ip and requestId). */
export interface RequestOrigin {
  ip: string;
  requestId: string;
}

/** Fastify's request: `id` is the sane request id (generateRequestId), `ip` the client's address. */
export function originOf(request: { ip: string; id: unknown }): RequestOrigin {
  return { ip: request.ip, requestId: String(request.id) };
}
