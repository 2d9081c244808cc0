/**
 * Which Kafka broker the Kafka suites use: `KAFKA_BROKERS` (`npm run kafka:local` starts one on
 * 127.0.0.1:9092; `.ci/run` does so and sets it). Without it a suite is reported as skipped with the
 * reason on stderr, never as passed, except where `REQUIRE_KAFKA=1` (CI): then a missing broker
 * fails the run loudly instead of turning the Kafka suites into skips.
 */
export function kafkaBrokersFor(suite: string): string | undefined {
  const brokers = process.env.KAFKA_BROKERS?.trim();
  if (brokers) return brokers;
  if (process.env.REQUIRE_KAFKA === '1') {
    throw new Error(`${suite}: REQUIRE_KAFKA=1 but KAFKA_BROKERS is not set (start one with npm run kafka:local)`);
  }
  // Jest hides console output of a suite that only skips: write the reason straight to stderr.
  process.stderr.write(
    `SKIPPED ${suite}: set KAFKA_BROKERS=host:port (npm run kafka:local starts one) to run it against a real Kafka broker\n`,
  );
  return undefined;
}
