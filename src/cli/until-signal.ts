// The long-running commands (serve, mcp --http) run until Ctrl+C or a termination signal; a test
// passes its own promise instead.

/** Resolves on the first SIGINT or SIGTERM, then stops listening for them. */
export function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
