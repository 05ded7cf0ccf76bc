import { ServiceUnavailableError } from '../errors';
import type { Logger } from '../ports/logger';

/**
 * T2, T4: while a service the ingest writes to is away (the database restarting), no event is
 * taken in (a Slack event over HTTP is refused, so Slack delivers it again): designed behaviour,
 * not an error. An outage is told once at warn when the first event is turned away, and once when
 * an event is taken in again, with how many were turned away meanwhile; the front ends say
 * nothing of each one (an operator's alerting would fire on the design).
 */
export class OutageRefusals {
  private refused = 0;
  private service: ServiceUnavailableError['service'] | null = null;

  constructor(private readonly log: Logger) {}

  /**
   * Counts `error` when it is a service being away (the outage's first is told); any other
   * error is the caller's. Whether it was counted.
   */
  count(error: unknown): boolean {
    if (!(error instanceof ServiceUnavailableError)) return false;
    if (this.refused === 0) {
      this.service = error.service;
      this.log.warn(
        { service: error.service },
        `${error.service} unavailable: events are not taken in until it is back`,
      );
    }
    this.refused += 1;
    return true;
  }

  /** An event was taken in: an outage, if one was being counted, is over. */
  taken(): void {
    if (this.refused === 0) return;
    this.log.warn(
      { service: this.service, refused: this.refused },
      `${this.service} back; ${this.refused} events not taken in meanwhile`,
    );
    this.refused = 0;
    this.service = null;
  }
}
