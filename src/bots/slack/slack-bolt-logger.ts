import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../core/ports/logger';

/** Bolt's and the Web API client's logs, through Summon's logger (and its secret redaction). */
export function boltLogger(logger: Logger): BoltLogger {
  let level = LogLevel.INFO;
  // The Web API client writes several debug lines a call, each one string: taken as it is.
  const text = (parts: unknown[]) =>
    parts.length === 1 && typeof parts[0] === 'string'
      ? parts[0]
      : parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
  return {
    debug: (...msg: unknown[]) => logger.debug({}, text(msg)),
    info: (...msg: unknown[]) => logger.info({}, text(msg)),
    warn: (...msg: unknown[]) => logger.warn({}, text(msg)),
    error: (...msg: unknown[]) => logger.error({}, text(msg)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
