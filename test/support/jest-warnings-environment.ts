import type { Circus } from '@jest/types';
import { TestEnvironment } from 'jest-environment-node';
import { type RecordedWarning, WARNINGS_GLOBAL } from './jest-process-warnings';

/**
 * Warnings the process may print without failing a test, each with why. A warning is matched by
 * its name and the start of its message.
 */
const ALLOWED: readonly { name: string; message: string; why: string }[] = [];

const allowed = (warning: Error) =>
  ALLOWED.some(
    (allowance) => warning.name === allowance.name && warning.message.startsWith(allowance.message),
  );

const describeWarning = (warning: RecordedWarning, where: string): Error => {
  const error = new Error(
    `${where} made the process emit a ${warning.name}: ${warning.message}\n` +
      'Process warnings are defects: fix the cause (or, when benign, allow it in test/support/jest-warnings-environment.ts).',
  );
  error.stack = `${error.message}\n${warning.stack.split('\n').slice(1).join('\n')}`;
  return error;
};

/**
 * The test environment of every project: Node's, plus a listener on the real process's `warning`
 * event (the sandbox's `process` is a copy, which Node never emits on). A warning emitted while a
 * test runs fails that test, naming it; one emitted outside any test (a hook, a module's top
 * level) fails the file.
 */
export default class WarningsAreDefects extends TestEnvironment {
  /** Every warning of this file, in order (read by the tests through `WARNINGS_GLOBAL`). */
  private readonly recorded: RecordedWarning[] = [];
  /** Warnings not yet charged to a test. */
  private unclaimed: RecordedWarning[] = [];

  private readonly onWarning = (warning: Error) => {
    if (allowed(warning)) return;
    const recorded = { name: warning.name, message: warning.message, stack: warning.stack ?? '' };
    this.recorded.push(recorded);
    this.unclaimed.push(recorded);
  };

  override async setup(): Promise<void> {
    await super.setup();
    this.global[WARNINGS_GLOBAL] = this.recorded;
    process.on('warning', this.onWarning);
  }

  override async teardown(): Promise<void> {
    process.off('warning', this.onWarning);
    await super.teardown();
  }

  handleTestEvent(event: Circus.Event, state: Circus.State): void {
    if (event.name === 'test_start') {
      this.chargeToFile(state);
    } else if (event.name === 'test_done') {
      const test = event.test;
      for (const warning of this.take())
        test.errors.push(describeWarning(warning, `The test “${test.name}”`));
    } else if (event.name === 'run_finish') {
      this.chargeToFile(state);
    }
  }

  /** Warnings emitted outside a test: the file fails with them. */
  private chargeToFile(state: Circus.State): void {
    for (const warning of this.take())
      state.unhandledErrors.push(describeWarning(warning, 'This test file (outside its tests)'));
  }

  private take(): RecordedWarning[] {
    const taken = this.unclaimed;
    this.unclaimed = [];
    return taken;
  }
}
