import { authorizationRequest } from '../../core/mcp/authorization-request';
import { tokenOwner } from '../../core/mcp/token-owner';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import type { MemberRecord } from '../../core/model/records';
import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import type { McpCallContext } from '../../core/ports/mcp-clients';
import type { Store } from '../../core/ports/store';
import type { McpOAuth } from './mcp-oauth';
import { digest } from './secret-box';

/** E5: a link is not sent again to the same owner within this long (a turn may call many times). */
export const RESEND_AFTER_MS = 5 * 60_000;

export interface AskForAuthorizationDeps {
  oauth: Pick<McpOAuth, 'authorizationLink'>;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** E5: a private message to the member on their platform (the link is theirs alone). */
  sendPrivately(member: MemberRecord, text: string): Promise<void>;
}

/**
 * E5: what a call that found no tokens (`McpAuthorizationNeeded`) does: the right person
 * (`authorizationRequest`) is sent a link privately, unless one went to them in the last five
 * minutes, and the model gets the sentence saying who was asked. Never throws: every failure
 * (no key, no public URL, the server unreachable, the message not sent) is the model's sentence.
 */
export async function askForAuthorization(
  deps: AskForAuthorizationDeps,
  context: McpCallContext,
  server: McpServerSpec,
): Promise<string> {
  try {
    const members = await deps.store.inWorkspace(context.workspaceId, (tx) =>
      tx.members.list(context.workspaceId),
    );
    const request = authorizationRequest({ server, context, members });
    if (request.kind === 'nobody') return request.toModel;
    const owner = tokenOwner({ workspaceId: context.workspaceId, memberId: request.owner.memberId }, server);
    const since = new Date(deps.clock.now().getTime() - RESEND_AFTER_MS);
    const sent = await deps.store.inWorkspace(context.workspaceId, (tx) =>
      tx.mcpOAuth.hasRecentPending(context.workspaceId, owner, since),
    );
    if (sent) return request.toModel;
    const link = await deps.oauth.authorizationLink(
      { workspaceId: context.workspaceId, memberId: request.owner.memberId ?? context.memberId ?? null },
      server,
    );
    try {
      await deps.sendPrivately(request.recipient, request.message(link));
    } catch (error) {
      deps.logger.warn(
        { server: server.name, member: request.recipient.id, reason: reasonOf(error) },
        'E5: the authorization link could not be sent',
      );
      // Nobody has this link: used up at once, so the next call sends another.
      await useUp(deps, link);
      const login = `summon mcp login ${server.name}${owner.memberId === null ? '' : ` --member ${request.recipient.nickname}`}`;
      return `${server.name} needs authorization, and the link could not be sent to @${request.recipient.nickname}: an operator can run \`${login}\`.`;
    }
    deps.logger.info({ server: server.name, member: request.recipient.id }, 'E5: authorization link sent');
    return request.toModel;
  } catch (error) {
    return reasonOf(error);
  }
}

async function useUp(deps: AskForAuthorizationDeps, link: string): Promise<void> {
  const state = new URL(link).searchParams.get('state');
  if (state === null) return;
  const pending = await deps.store.transaction((tx) => tx.mcpOAuth.findPending(digest(state)));
  if (pending === null) return;
  await deps.store.inWorkspace(pending.workspaceId, (tx) =>
    tx.mcpOAuth.usePending(pending.id, deps.clock.now()),
  );
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
