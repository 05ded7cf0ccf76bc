import type { Platform } from '../model/platform';
import type { ChannelBindingRecord } from '../model/records';

/**
 * W2: where a routine's firing is posted: its space's channel on a chat platform this process
 * runs, a chat channel before a GitHub repository (a repository is a space's channel too, P19,
 * but there a firing would open an issue); a repository only when the space has no other.
 */
export function postingBinding(
  bindings: readonly ChannelBindingRecord[],
  spaceId: string,
  platforms: ReadonlyMap<Platform, unknown>,
): ChannelBindingRecord | undefined {
  const usable = bindings.filter((b) => b.spaceId === spaceId && platforms.has(b.platform));
  return usable.find((b) => b.platform !== 'github') ?? usable[0];
}
