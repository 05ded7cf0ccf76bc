import type { RelayClient } from '../../ports/relay-client';
import type { WaitsDeps } from '../waits/waits-deps';

/**
 * What the agent-to-agent tools use of the engine (M23, N11, N13, R2): what a run's waits use
 * (they wait on runs and questions, T1), this relay's name and its paired relays.
 */
export interface AgentToolDeps extends WaitsDeps {
  /** N5: this relay's name; null shows as "this relay". */
  relayName: string | null;
  /** R2: signed requests to paired relays; absent: this relay is paired with none. */
  relays?: RelayClient;
}
