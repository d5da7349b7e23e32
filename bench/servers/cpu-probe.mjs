// Preloaded into every bench server (`node --import ./cpu-probe.mjs`, see bench/server-process.ts).
// Answers the parent's IPC messages:
// - `{ cpu: true }` with `{ cpu: process.cpuUsage() }` (user and system µs of all its threads), so
//   the bench reports CPU time per request, which, unlike requests per second, leaves out the time
//   the server waited for a core that other processes held;
// - `{ profile: 'start' }` and `{ profile: 'stop', file }`: a V8 CPU profile of this process's main
//   thread (as `node --cpu-prof` writes, but of the measured load only: no start-up, no shutdown),
//   written to `file`, then `{ profiled: file }`.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import process from 'node:process';

let session;

async function profile(message) {
  if (message.profile === 'start') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    return { profiling: true };
  }
  const { profile: result } = await session.post('Profiler.stop');
  session.disconnect();
  session = undefined;
  await writeFile(message.file, JSON.stringify(result));
  return { profiled: message.file };
}

process.on('message', (message) => {
  if (message?.cpu) process.send?.({ cpu: process.cpuUsage() });
  if (message?.profile) {
    profile(message).then(
      (answer) => process.send?.(answer),
      (error) => process.send?.({ profileError: String(error) }),
    );
  }
});
