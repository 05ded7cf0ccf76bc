import { AppError } from '../../core/errors';
import type { GatewayApprovals } from './gateway-deps';

/**
 * The HTTP server (and its gateway) starts before the turn engine: the engine attaches itself
 * here when it starts. Until then an `ask` cannot be posted, and the push is refused (G2a: an
 * ask nobody can answer is a no).
 */
export class EngineApprovalsSlot implements GatewayApprovals {
  private target: GatewayApprovals | null = null;

  attach(target: GatewayApprovals): void {
    this.target = target;
  }

  detach(target: GatewayApprovals): void {
    if (this.target === target) this.target = null;
  }

  requestApproval(request: Parameters<GatewayApprovals['requestApproval']>[0]) {
    return this.current().requestApproval(request);
  }

  approvalState(approvalId: string) {
    return this.current().approvalState(approvalId);
  }

  awaitApproval(approvalId: string, signal: AbortSignal) {
    return this.current().awaitApproval(approvalId, signal);
  }

  async expireApprovals(): Promise<string[]> {
    return (await this.current().expireApprovals?.()) ?? [];
  }

  private current(): GatewayApprovals {
    if (this.target === null) {
      throw new AppError('No turn engine is running to post the approval card.', 'unavailable');
    }
    return this.target;
  }
}
