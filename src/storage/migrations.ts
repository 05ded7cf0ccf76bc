import { InitialSchema1764460800000 } from '../../migrations/1764460800000-InitialSchema';
import { RunCardsAndReplies1764547200000 } from '../../migrations/1764547200000-RunCardsAndReplies';
import { DiscordBackfill1764892800000 } from '../../migrations/1764892800000-DiscordBackfill';

/**
 * Every migration, oldest first. Imported as classes (not globbed from disk) so that they run
 * the same compiled, under tsx and under jest.
 */
export const MIGRATIONS = [
  InitialSchema1764460800000,
  RunCardsAndReplies1764547200000,
  DiscordBackfill1764892800000,
];
