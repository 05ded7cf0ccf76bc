import type { RoutingKey } from '../../../core/ports/routing-reads';
import type { Statement } from '../prepared-statement';
import { textLiteral } from '../statements-together';
import { DIRECTORY_VERSION } from './directory-version';
import type { CachedRead } from './read-through-cache';

/**
 * T7: of routing's directory statements (workspace, binding, space, sender, agents,
 * participants, access groups), those only the directory commands write: the workspace, the
 * channel's binding, the agents, the access groups. Spaces and participants (a direct message's
 * space, P1; a participant added, M2) and members (P24: admitted on a first message) are
 * written on the message path: always read.
 */
const ROUTING_CACHED = [0, 1, 4, 6];

/** The channel's binding's rows (`channel_bindings`), of the cached ones. */
const BINDING = 1;

/** T7: routing's directory read through the process's cache, keyed by the channel. */
export const routingDirectoryRead = (key: RoutingKey, statements: readonly Statement[]): CachedRead => ({
  version:
    'slug' in key.workspace
      ? DIRECTORY_VERSION.slug.with(textLiteral(key.workspace.slug))
      : DIRECTORY_VERSION.team.with(
          textLiteral(key.workspace.platform),
          textLiteral(key.workspace.externalId),
        ),
  workspace: { locator: JSON.stringify(key.workspace) },
  key: JSON.stringify(['routing', key.platform, key.channelId]),
  statements,
  cachedAt: ROUTING_CACHED,
  // The binding is read by channel, whatever its workspace: kept only when it is this
  // workspace's own, so that every change to it bumps the version the entry is kept under.
  keep: (cached, workspaceId) => {
    const [binding] = cached[ROUTING_CACHED.indexOf(BINDING)] ?? [];
    return binding !== undefined && String(binding.workspace_id) === workspaceId;
  },
  enter: null,
});
