import { ServiceUnavailableError } from '../errors';
import type { Logger } from '../ports/logger';

/**
 * T2, T4: while a service the ingest writes to is away (the database restarting), a front end
 * refuses each event's ack so the platform delivers it again: designed behaviour, not an error.
 * An outage is told once at warn when the first event is refused, and once when an event is
 * taken in again, with how many were refused meanwhile; each refusal on its own says nothing.
 */
export class OutageRefusals {
  private refused = 0;
  private service: ServiceUnavailableError['service'] | null = null;

  constructor(private readonly log: Logger) {}

  /**
   * Whether `error` is a service being away: then the refusal is counted (the outage's first
   * is told) and the caller logs nothing more. Any other error is the caller's to log.
   */
  count(error: unknown): boolean {
    if (!(error instanceof ServiceUnavailableError)) return false;
    if (this.refused === 0) {
      this.service = error.service;
      this.log.warn(
        { service: error.service },
        `${error.service} unavailable: refusing events until it is back`,
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
      `${this.service} back; ${this.refused} events refused meanwhile`,
    );
    this.refused = 0;
    this.service = null;
  }
}
