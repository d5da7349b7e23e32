import type { Logger } from 'pino';
import type { ErrorReport } from '../kernel/error-sink.js';

/** Where a fleet node's failures go: the SDK's error sink (`ErrorSink.report`). */
export type FleetReport = (report: ErrorReport) => void;

/** `report`, or a log line when the fleet's parts run without an SDK around them (tests). */
export function fleetReporter(
  report: FleetReport | undefined,
  log: Logger | undefined,
): FleetReport {
  return (
    report ??
    ((r) =>
      log?.error(
        { err: r.error, source: r.source, event: r.event, client: r.client },
        'fleet: %s failed',
        r.event ?? r.source,
      ))
  );
}
