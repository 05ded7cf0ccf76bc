/** A warning the process emitted, as the test environment recorded it. */
export interface RecordedWarning {
  name: string;
  message: string;
  stack: string;
}

/** Where the test environment hands a test file its recorded warnings. */
export const WARNINGS_GLOBAL = 'summonProcessWarnings';

/**
 * The warnings the real process emitted while `work` ran (and the tick after: Node emits them on
 * the next tick), as recorded by the test environment (`jest-warnings-environment.ts`).
 */
export const warningsDuring = async (work: () => Promise<unknown>): Promise<RecordedWarning[]> => {
  const recorded = (globalThis as Record<string, unknown>)[WARNINGS_GLOBAL] as RecordedWarning[] | undefined;
  if (recorded === undefined) throw new Error('The tests run without jest-warnings-environment.ts.');
  const before = recorded.length;
  await work();
  await new Promise((resolve) => setImmediate(resolve));
  return recorded.slice(before);
};
