// Shared by the bench's server processes: tell the parent where we listen (an IPC message, so
// stdout stays free for logs), and close cleanly on SIGTERM/SIGINT so `--cpu-prof` can write
// its profile.
import process from 'node:process';
export function announce(server, extra = {}) {
  const { port } = server.address();
  process.send?.({ listening: `http://127.0.0.1:${port}`, ...extra });
}

export function onStop(stop) {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    Promise.resolve()
      .then(stop)
      .then(
        () => process.exit(0),
        (error) => {
          process.stderr.write(`${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
