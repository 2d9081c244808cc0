import {
  IdempotencyConflictError,
  MAX_EVENTS_PER_APPEND,
  WrongExpectedVersionError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '@transfergate/event-store';

/** Metadata keys the mirror adds: where and when the event was recorded in the store of record. */
export const SOURCE_RECORDED_AT = 'sourceRecordedAt';

export class MirrorDivergenceError extends Error {
  constructor(streamId: string, streamVersion: number) {
    super(`event mirror: stream ${streamId} does not hold the store of record's event at version ${streamVersion}`);
    this.name = 'MirrorDivergenceError';
  }
}

/** A run of consecutive events of one stream, in version order, at most MAX_EVENTS_PER_APPEND. */
export interface StreamRun {
  streamId: string;
  events: RecordedEvent[];
}

/**
 * The batch (in global order) cut into runs of one stream each, in the same order: appending the
 * runs one after the other keeps every stream's order and the batch's global order in the target.
 */
export function streamRunsOf(events: readonly RecordedEvent[]): StreamRun[] {
  const runs: StreamRun[] = [];
  for (const event of events) {
    const last = runs[runs.length - 1];
    const continues =
      last !== undefined &&
      last.streamId === event.streamId &&
      last.events.length < MAX_EVENTS_PER_APPEND &&
      last.events[last.events.length - 1]!.streamVersion + 1 === event.streamVersion;
    if (continues) last.events.push(event);
    else runs.push({ streamId: event.streamId, events: [event] });
  }
  return runs;
}

function newEventOf(event: RecordedEvent): NewEvent {
  return {
    eventId: event.eventId,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: { ...event.metadata, [SOURCE_RECORDED_AT]: event.createdAt },
  };
}

/**
 * Appends `events` (a consumer's batch, in global order) to `target` at their own stream versions,
 * with their own event ids: the target's streams are the store of record's, event for event. A
 * batch delivered again (at-least-once) changes nothing: a run already there is an idempotent
 * replay, and a run partly there (a redelivery cut differently) is checked event by event and only
 * its missing tail is appended. A target stream holding another event at a version is refused
 * (MirrorDivergenceError): the mirror never forks a stream.
 */
export async function mirrorEvents(target: EventStore, events: readonly RecordedEvent[]): Promise<number> {
  let appended = 0;
  for (const run of streamRunsOf(events)) appended += await mirrorRun(target, run);
  return appended;
}

async function mirrorRun(target: EventStore, run: StreamRun): Promise<number> {
  const first = run.events[0]!;
  const expected = first.streamVersion - 1;
  try {
    const result = await target.append(
      run.streamId,
      run.events.map(newEventOf),
      expected === 0 ? 'no_stream' : expected,
    );
    return result.idempotentReplay ? 0 : run.events.length;
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError) && !(error instanceof IdempotencyConflictError)) throw error;
  }
  // The target is not where the run starts: what it holds from there on must be this run's events.
  const held = await target.readStream(run.streamId, first.streamVersion);
  const lastHeld = held[held.length - 1];
  // Nothing at the run's first version: the target is behind it, a gap the mirror never papers over.
  if (lastHeld === undefined) throw new MirrorDivergenceError(run.streamId, first.streamVersion);
  for (const there of held) {
    const ours = run.events[there.streamVersion - first.streamVersion];
    if (ours !== undefined && ours.eventId !== there.eventId) {
      throw new MirrorDivergenceError(run.streamId, there.streamVersion);
    }
  }
  const missing = run.events.filter((event) => event.streamVersion > lastHeld.streamVersion);
  if (missing.length === 0) return 0;
  await target.append(run.streamId, missing.map(newEventOf), lastHeld.streamVersion);
  return missing.length;
}
