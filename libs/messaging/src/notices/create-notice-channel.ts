import { kafkaInstanceId, kafkaTransportOptions, type ServiceName } from '../kafka/kafka-transport.options.js';
import type { TransportConfig } from '../transport.js';
import { KafkaNoticeChannel } from './kafka-notice-channel.js';
import { NatsNoticeChannel } from './nats-notice-channel.js';
import type { NoticeChannel } from './notice-channel.js';

/** The notice channel of the configured transport (the one commands and queries use). */
export function createNoticeChannel(
  config: TransportConfig,
  service: ServiceName,
  allNames: readonly string[],
): NoticeChannel {
  if (config.kind === 'kafka') {
    const options = kafkaTransportOptions(config.env, service, kafkaInstanceId(config.env));
    const consumer = options.server.options?.consumer;
    return new KafkaNoticeChannel({
      brokers: options.brokers,
      prefix: config.subjectPrefix,
      allNames,
      clientId: options.clientId,
      sessionTimeoutMs: consumer?.sessionTimeout ?? 30_000,
    });
  }
  return new NatsNoticeChannel(config.natsUrl, config.subjectPrefix, `${service}-notices`);
}
