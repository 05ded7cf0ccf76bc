import {
  type App,
  defaultProcessEventErrorHandler,
  HTTPModuleFunctions,
  type ReceiverProcessEventErrorHandlerArgs,
  type SocketModeReceiverProcessEventErrorHandlerArgs,
} from '@slack/bolt';
import { ServiceUnavailableError } from '../../core/errors';
import type { Logger } from '../../core/ports/logger';

/**
 * T2, T4: an event whose write failed because the database is away is refused (over HTTP a
 * 500, and Slack delivers it again); the core's ingest tells the outage once, with a count.
 * Bolt's own handlers would log each such event twice at error level, so they are given only
 * the other errors.
 */
export const quietRefusals = {
  /** HTTP mode's `processEventErrorHandler`. */
  http: async (args: ReceiverProcessEventErrorHandlerArgs): Promise<boolean> => {
    if (!isRefusal(args.error) || args.response.headersSent)
      return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
    args.response.writeHead(500);
    args.response.end();
    return false;
  },
  /** Socket Mode's `processEventErrorHandler` (Bolt acknowledged the event before any middleware). */
  socket: async (args: SocketModeReceiverProcessEventErrorHandlerArgs): Promise<boolean> =>
    isRefusal(args.error) ? false : defaultProcessEventErrorHandler(args),
  /** The app's error handler: a refusal is told at debug; any other error at error level, as Bolt does. */
  app: (app: App, log: Logger) =>
    app.error(async (error) => {
      if (isRefusal(error)) log.debug({ err: error }, 'Slack event refused: the database is away');
      else log.error({ err: error }, 'Slack event failed');
      throw error;
    }),
};

const isRefusal = (error: unknown): boolean => error instanceof ServiceUnavailableError;
