import type { ServiceUnavailableError } from '../errors';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';

type Service = ServiceUnavailableError['service'];

/**
 * T2, A12: what this process saw of the services it depends on. A call that found a service
 * unreachable marks it down; the next call that got through marks it back, which tells the
 * listeners at once (the engine runs its recovery pass then, rather than at its next sweep).
 * The database's return also starts a grace period: for that long no run is judged dead for
 * its silence, since the processes running them could not write their heartbeats either and
 * are only now catching up.
 */
export class OutageWatch {
  private readonly down = new Map<Service, Date>();
  /** When the database was last reached again after an outage (heartbeats are database writes). */
  private databaseBackAt: Date | null = null;
  private readonly listeners = new Set<(service: Service) => void>();

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** A call found `service` unreachable. */
  unavailable(service: Service, error: unknown): void {
    if (this.down.has(service)) return;
    this.down.set(service, this.clock.now());
    this.logger.warn(
      { service, err: error },
      `${service} unreachable: work that could not be stored is kept and retried`,
    );
  }

  /** A call to `service` got through; when it was down, it is back now. */
  reached(service: Service): void {
    const since = this.down.get(service);
    if (since === undefined) return;
    this.down.delete(service);
    const now = this.clock.now();
    if (service === 'database') this.databaseBackAt = now;
    this.logger.info({ service, outageMs: now.getTime() - since.getTime() }, `${service} reachable again`);
    for (const listener of [...this.listeners]) listener(service);
  }

  /** Called each time a service that was down is reached again; the returned function unsubscribes. */
  onRestored(listener: (service: Service) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A12: true while the database is down, or less than `graceMs` after it came back: a run's
   * silence (its heartbeat is a database write) says nothing then about whether its process is
   * alive. Redis carries no heartbeat, so its outages excuse nothing.
   */
  silenceIsExcused(graceMs: number): boolean {
    if (this.down.has('database')) return true;
    if (this.databaseBackAt === null) return false;
    return this.clock.now().getTime() - this.databaseBackAt.getTime() < graceMs;
  }
}
