import { parseArgs } from 'node:util';
import type { TurnsBenchOptions } from './turns-bench';

const int = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`--${name} must be an integer >= 1, got "${value}".`);
  return n;
};

/** `npm run bench -- turns [--pending N] [--messages N] [--slots N] [--model-ms N] [--burst N] [--spread-ms N]` */
export function parseTurnsOptions(argv: readonly string[]): TurnsBenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      pending: { type: 'string' },
      messages: { type: 'string' },
      slots: { type: 'string' },
      'model-ms': { type: 'string' },
      burst: { type: 'string' },
      'spread-ms': { type: 'string' },
    },
  });
  return {
    pending: int('pending', values.pending, 50),
    messages: int('messages', values.messages, 100),
    slots: int('slots', values.slots, 4),
    modelMs: int('model-ms', values['model-ms'], 5000),
    burst: int('burst', values.burst, 40),
    spreadMs: int('spread-ms', values['spread-ms'], 8000),
  };
}
