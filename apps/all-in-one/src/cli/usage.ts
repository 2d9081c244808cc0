/** `transfergate --help`: the commands and the server's own options (each command has its own --help). */
export const MAIN_USAGE = `usage: transfergate [--demo] [--bootstrap <file.json>]       start the gateway (all services, one process)
       transfergate statement --merchant <id|name> --from <ISO> --to <ISO> [options]
       transfergate replay [options]
       transfergate <command> --help                          the options of one command

Starting the gateway:
  --bootstrap <file.json>   apply a provisioning file at start (same as TRANSFERGATE_BOOTSTRAP)
  --demo                    provision one infrastructure and sandbox provider per API form (their
                            callbacks go to 127.0.0.1:9999); listens on 127.0.0.1 unless HOST is
                            set (the demo's keys are published)
  -h, --help                this text

Commands:
  statement   print a merchant's account statement from the event store
  replay      rebuild the read models from the event store, verify hash chains and ledger invariants

Configuration comes from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, …): see
docs/operations.md, "Configuration".`;

/** The address `--demo` listens on when HOST is not set: its API keys are published in the README. */
export const DEMO_DEFAULT_HOST = '127.0.0.1';
