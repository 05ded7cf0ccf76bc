import {
  type App,
  defaultProcessEventErrorHandler,
  HTTPModuleFunctions,
  type ReceiverProcessEventErrorHandlerArgs,
  type SocketModeReceiverProcessEventErrorHandlerArgs,
} from '@slack/bolt';
import { ServiceUnavailableError } from '../../core/errors';
import type { OutageRefusals } from '../../core/ingest/outage-refusals';
import type { Logger } from '../../core/ports/logger';

/**
 * T2, T4: an event whose write failed because the database is away is refused (HTTP: a 500;
 * Socket Mode: no ack) and Slack delivers it again. `refusals` counts it (one warning per
 * outage); Bolt's own handlers would log it twice at error level, so they are given it only
 * for every other error.
 */
export function quietRefusals(refusals: OutageRefusals) {
  return {
    /** HTTP mode's `processEventErrorHandler`. */
    http: async (args: ReceiverProcessEventErrorHandlerArgs): Promise<boolean> => {
      if (!isRefusal(args.error) || args.response.headersSent)
        return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
      args.response.writeHead(500);
      args.response.end();
      return false;
    },
    /** Socket Mode's `processEventErrorHandler`: false leaves the event unacknowledged. */
    socket: async (args: SocketModeReceiverProcessEventErrorHandlerArgs): Promise<boolean> =>
      isRefusal(args.error) ? false : defaultProcessEventErrorHandler(args),
    /** The app's error handler: the refusal is counted; any other error is logged, as Bolt does. */
    app: (app: App, log: Logger) =>
      app.error(async (error) => {
        if (!refusals.count(error)) log.error({ err: error }, 'Slack event failed');
        throw error;
      }),
  };
}

const isRefusal = (error: unknown): boolean => error instanceof ServiceUnavailableError;
