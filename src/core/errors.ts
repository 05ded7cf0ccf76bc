/**
 * One error base with a string code and a cause. A person who sends bad input gets the
 * message (a sentence that says what to do), never a stack trace.
 */
export class AppError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** One problem in an input, located by a path such as `agents[2].silenceTimeoutMinutes`. */
export interface Issue {
  path: string;
  message: string;
}

export class ValidationError extends AppError {
  constructor(
    message: string,
    readonly issues: readonly Issue[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, 'validation_failed', options);
  }

  /** Every issue, one per line: `agents[2].silenceTimeoutMinutes: must be 1..240`. */
  describe(): string {
    if (this.issues.length === 0) return this.message;
    return [this.message, ...this.issues.map((i) => `  ${i.path ? `${i.path}: ` : ''}${i.message}`)].join(
      '\n',
    );
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'not_found', options);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'conflict', options);
  }
}

/**
 * T2, A12: a service the process depends on (the database, Redis) could not be reached: a
 * refused or dropped connection, a server shutting down or starting up. Worth trying again
 * once it is back. `maybeDone`: the call may still have taken effect (the connection dropped
 * while a COMMIT was in flight), so only a call that is safe to repeat may be tried again.
 */
export class ServiceUnavailableError extends AppError {
  constructor(
    readonly service: 'database' | 'redis',
    message: string,
    readonly maybeDone: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, 'service_unavailable', options);
  }
}

/**
 * T3: a transaction committed with its last message (`StoreTx.commitWithNextMessage`), and its
 * work failed after that (a statement issued after that message is refused). What it wrote is
 * stored: it is not to be run again.
 */
export class FailedAfterCommitError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'failed_after_commit', options);
  }
}
