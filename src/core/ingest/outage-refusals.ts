import { ServiceUnavailableError } from '../errors';
import type { Logger } from '../ports/logger';

/**
 * T2, T4: while a service the ingest writes to is away (the database restarting), a front end
 * takes no event in (Slack's are refused, so Slack delivers them again): designed behaviour, not
 * an error. An outage is told once at warn when the first event is turned away, and once when an
 * event is taken in again, with how many were turned away meanwhile; each on its own says nothing.
 */
export class OutageRefusals {
  private refused = 0;
  private service: ServiceUnavailableError['service'] | null = null;

  constructor(
    private readonly log: Logger,
    /** How the front end says it: what it does meanwhile, and what the count counts. */
    private readonly words: { meanwhile: string; counted: string } = {
      meanwhile: 'refusing events until it is back',
      counted: 'events refused',
    },
  ) {}

  /**
   * Whether `error` is a service being away: then the refusal is counted (the outage's first
   * is told) and the caller logs nothing more. Any other error is the caller's to log.
   */
  count(error: unknown): boolean {
    if (!(error instanceof ServiceUnavailableError)) return false;
    if (this.refused === 0) {
      this.service = error.service;
      this.log.warn({ service: error.service }, `${error.service} unavailable: ${this.words.meanwhile}`);
    }
    this.refused += 1;
    return true;
  }

  /** An event was taken in: an outage, if one was being counted, is over. */
  taken(): void {
    if (this.refused === 0) return;
    this.log.warn(
      { service: this.service, refused: this.refused },
      `${this.service} back; ${this.refused} ${this.words.counted} meanwhile`,
    );
    this.refused = 0;
    this.service = null;
  }
}
