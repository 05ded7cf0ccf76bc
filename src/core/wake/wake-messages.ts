import type { PairRateLimit } from '../ports/pair-rate-limiter';
import { MAX_AGENTS_PER_REPLY, MAX_WAKE_DEPTH } from './wake-limits';

/**
 * M21: the texts of the system messages for rejected wakes. People read these in the
 * thread, so each names the mention, says why, and, where there is one, what still works.
 */

export function at(name: string): string {
  return name.startsWith('@') ? name : `@${name}`;
}

export function depthMessage(name: string, depth: number, chain: string): string {
  return (
    `${at(name)} was not woken: the wake chain is already ${depth} deep (${chain}), ` +
    `and agents may wake one another at most ${MAX_WAKE_DEPTH} deep. ` +
    `A person can mention ${at(name)} to start it.`
  );
}

export function cycleMessage(name: string, chain: string): string {
  return (
    `${at(name)} was not woken: it is already in this wake chain (${chain}), ` +
    `and an agent is never woken twice by one chain. A person can mention ${at(name)} to start it.`
  );
}

export function rateMessage(name: string, wokenBy: string, limit: PairRateLimit | undefined): string {
  const reached = limit
    ? `has already woken ${at(name)} ${times(limit.max)} in the last ${duration(limit.windowMs)}, the most allowed`
    : `has woken ${at(name)} too often in the last few minutes`;
  return `${at(name)} was not woken: ${at(wokenBy)} ${reached}. Try again later, or a person can mention ${at(name)}.`;
}

export function tooManyMessage(names: readonly string[]): string {
  return (
    `${list(names.map(at))} were not woken: a reply that names more than ` +
    `${words(MAX_AGENTS_PER_REPLY)} agents (this one names ${names.length}) is read as a list, ` +
    `not a summons. Mention at most ${words(MAX_AGENTS_PER_REPLY)} agents to wake them.`
  );
}

export function ambiguousMessage(name: string): string {
  return (
    `${at(name)} was not woken: more than one agent is named "${name.replace(/^@/, '')}", ` +
    `so the mention reaches nobody.`
  );
}

/** `@a, @b, @c and @d` */
export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

function times(count: number): string {
  return count === 1 ? 'once' : `${count} times`;
}

function words(count: number): string {
  return ['zero', 'one', 'two', 'three', 'four', 'five'][count] ?? String(count);
}

/** `10 minutes`, `1 hour`, `90 seconds`: the largest whole unit. */
export function duration(ms: number): string {
  const units: [number, string][] = [
    [60 * 60 * 1000, 'hour'],
    [60 * 1000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, unit] of units) {
    if (ms >= size && ms % size === 0) {
      const count = ms / size;
      return count === 1 ? `${unit}` : `${count} ${unit}s`;
    }
  }
  return `${ms} ms`;
}
