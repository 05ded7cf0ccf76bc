import { AppError } from '../../core/errors';

/** X4: the sandbox cannot start, so the command does not run. The message says how to fix it. */
export class SandboxUnavailableError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'sandbox_unavailable', options);
  }
}
