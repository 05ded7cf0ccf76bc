import type { PairRateLimiter } from '../../../src/core/ports/pair-rate-limiter';

export interface PairCall {
  workspaceId: string;
  fromAgentId: string;
  toAgentId: string;
  now: Date;
}

/** A hand-written limiter: records every call and answers from a rule the test chooses. */
export class FakePairRateLimiter implements PairRateLimiter {
  readonly calls: PairCall[] = [];

  constructor(private readonly allow: (call: PairCall) => boolean = () => true) {}

  static denying(...toAgentIds: string[]): FakePairRateLimiter {
    return new FakePairRateLimiter((call) => !toAgentIds.includes(call.toAgentId));
  }

  async tryAcquire(workspaceId: string, fromAgentId: string, toAgentId: string, now: Date): Promise<boolean> {
    const call = { workspaceId, fromAgentId, toAgentId, now };
    this.calls.push(call);
    return this.allow(call);
  }
}
