export * from './webhook-ingest.module.js';
export * from './webhook.settings.js';
export {
  mapStatus,
  idCandidates,
  resolveCandidates,
  rejectionReason,
  cleanText,
  type MappedStatus,
  type IdCandidate,
  type CandidateMatch,
  type Resolution,
} from './webhook-body.js';
export { loggableHeaders } from './webhook-headers.js';
export { TRANSACTIONS_BY_IDS_SQL } from './webhook-ingest.service.js';
