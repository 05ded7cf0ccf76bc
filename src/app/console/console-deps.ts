import type { PlatformSignIn } from '../../adapters/console-auth/platform-sign-in';
import type { ConsoleConfig } from '../../config/console-config';
import type { LiveCardBoard } from '../../core/engine/cards/live-card-board';
import type { McpChat } from '../../core/mcp-service/member-tools-deps';
import type { MemberToolsService } from '../../core/mcp-service/member-tools-service';
import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import type { Store } from '../../core/ports/store';
import type { CookieSigner } from './console-cookies';
import type { ConsoleSessions } from './console-sessions';

/** O5: what the web console works with; it decides nothing itself but who is signed in. */
export interface ConsoleDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  config: ConsoleConfig;
  /** The chat this process runs (its engine's `act` is the console's Stop and decisions); null: none. */
  chat: () => McpChat | null;
  /** E6's member tools: the approvals a member can see and decide, and usage, by the same rules. */
  members: MemberToolsService;
  sessions: ConsoleSessions;
  signer: CookieSigner;
  /** The sign-ins configured, by platform. */
  signIns: ReadonlyMap<'slack' | 'discord', PlatformSignIn>;
  /** The status cards of the turns this process runs, published as they change. */
  liveCards: LiveCardBoard;
  /** How often the live pages look for runs started and ended (ms). */
  livePollMs: number;
}

/** Where people reach the console: `SUMMON_PUBLIC_URL`, or this request's own host without one. */
export function publicBase(deps: Pick<ConsoleDeps, 'config'>, host: string | undefined): string {
  return deps.config.publicUrl ?? `http://${host ?? '127.0.0.1'}`;
}

/** O5: cookies are `Secure` when the console is served over HTTPS. */
export const secureCookies = (deps: Pick<ConsoleDeps, 'config'>): boolean =>
  deps.config.publicUrl?.startsWith('https://') ?? false;
