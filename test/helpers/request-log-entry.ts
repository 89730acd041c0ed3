import type { RequestLogEntry } from '../../src/simulator/request-log';

/** A request log entry as the simulator writes one for a plain GET, with the id given. */
export const logEntry = (requestId: string): RequestLogEntry => ({
  requestId, method: 'GET', path: '/servers', status: 200, replayed: false, dropped: false, faults: [], at: 0,
});
