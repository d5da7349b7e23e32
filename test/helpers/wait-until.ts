/**
 * Polls `check` every 20 ms until it holds; rejects after `timeoutMs`, naming what it saw
 * (`state()`, if given) so a failure says more than "timed out".
 */
export async function waitUntil(
  check: () => boolean,
  timeoutMs = 5_000,
  state: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting ${state()}`.trim());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
