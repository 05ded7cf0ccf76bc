import type { WaitSignals } from '../ports/wait-signals';

/** T1 in one process (the embedded default): a notification reaches this process's waiters. */
export class InProcessWaitSignals implements WaitSignals {
  private readonly listeners = new Map<string, Set<() => void>>();

  async notify(topic: string): Promise<void> {
    for (const listener of [...(this.listeners.get(topic) ?? [])]) listener();
  }

  async subscribe(topic: string, onSignal: () => void): Promise<() => void> {
    const listener = () => onSignal();
    const set = this.listeners.get(topic) ?? new Set();
    set.add(listener);
    this.listeners.set(topic, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(topic) === set) this.listeners.delete(topic);
    };
  }

  /** How many topics have a waiter (for tests and diagnostics). */
  topicCount(): number {
    return this.listeners.size;
  }
}
