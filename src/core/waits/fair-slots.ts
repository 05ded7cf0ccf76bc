import { ValidationError } from '../errors';

/** Who a slot is for: waiters are served round-robin across workspaces, then their spaces (T3). */
export interface SlotOwner {
  workspaceId: string;
  spaceId: string;
}

/** A slot held; `release` gives it back (idempotent). */
export interface SlotLease {
  release(): void;
}

interface Waiter {
  grant: (lease: SlotLease) => void;
}

/**
 * T3: a counting semaphore for active turns with fair sharing. When every slot is taken,
 * waiters queue per workspace and space; a freed slot goes to the next workspace in turn,
 * and within it to the next space in turn, so one busy workspace (or space) cannot starve
 * the others. Pure: no timers, no I/O.
 */
export class FairSlots {
  private active = 0;
  /** Workspace → space → waiters; Map order is the round-robin order (served ones move last). */
  private readonly waiting = new Map<string, Map<string, Waiter[]>>();
  private waiters = 0;

  constructor(private capacity: number) {
    assertCapacity(capacity);
  }

  /** Changes the bound; freed room goes to waiters at once. */
  setCapacity(capacity: number): void {
    assertCapacity(capacity);
    this.capacity = capacity;
    this.grantWhileRoom();
  }

  /** A slot for `owner`, at once when one is free; null when `signal` aborts first. */
  acquire(owner: SlotOwner, signal?: AbortSignal): Promise<SlotLease | null> {
    if (signal?.aborted) return Promise.resolve(null);
    if (this.active < this.capacity && this.waiters === 0) return Promise.resolve(this.lease());
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: (lease) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(lease);
        },
      };
      const onAbort = () => {
        if (this.remove(owner, waiter)) resolve(null);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.enqueue(owner, waiter);
    });
  }

  /**
   * A slot for a turn that can start at once or not at all: one is free and nobody waits for
   * one (so it never goes ahead of a waiter: fairness holds, T3). Null otherwise.
   */
  tryAcquire(): SlotLease | null {
    return this.active < this.capacity && this.waiters === 0 ? this.lease() : null;
  }

  stats(): { capacity: number; active: number; waiting: number } {
    return { capacity: this.capacity, active: this.active, waiting: this.waiters };
  }

  private lease(): SlotLease {
    this.active += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.active -= 1;
        this.grantWhileRoom();
      },
    };
  }

  private grantWhileRoom(): void {
    while (this.active < this.capacity) {
      const next = this.next();
      if (next === null) return;
      next.grant(this.lease());
    }
  }

  private enqueue(owner: SlotOwner, waiter: Waiter): void {
    const spaces = this.waiting.get(owner.workspaceId) ?? new Map<string, Waiter[]>();
    const queue = spaces.get(owner.spaceId) ?? [];
    queue.push(waiter);
    spaces.set(owner.spaceId, queue);
    this.waiting.set(owner.workspaceId, spaces);
    this.waiters += 1;
  }

  /** The first waiter of the first space of the first workspace; both move to the back. */
  private next(): Waiter | null {
    for (const [workspaceId, spaces] of this.waiting) {
      for (const [spaceId, queue] of spaces) {
        const waiter = queue.shift();
        spaces.delete(spaceId);
        if (queue.length > 0) spaces.set(spaceId, queue);
        this.waiting.delete(workspaceId);
        if (spaces.size > 0) this.waiting.set(workspaceId, spaces);
        if (waiter !== undefined) {
          this.waiters -= 1;
          return waiter;
        }
      }
    }
    return null;
  }

  private remove(owner: SlotOwner, waiter: Waiter): boolean {
    const spaces = this.waiting.get(owner.workspaceId);
    const queue = spaces?.get(owner.spaceId);
    const index = queue?.indexOf(waiter) ?? -1;
    if (spaces === undefined || queue === undefined || index < 0) return false;
    queue.splice(index, 1);
    if (queue.length === 0) spaces.delete(owner.spaceId);
    if (spaces.size === 0) this.waiting.delete(owner.workspaceId);
    this.waiters -= 1;
    return true;
  }
}

function assertCapacity(capacity: number): void {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new ValidationError(`The turn concurrency must be a whole number of at least 1 (got ${capacity}).`);
  }
}
