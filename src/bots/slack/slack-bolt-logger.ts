import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../core/ports/logger';

/** Bolt's and the Web API client's logs, through Summon's logger (and its secret redaction). */
export function boltLogger(logger: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const text = (parts: unknown[]) =>
    parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
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
