import { APIConnectionError, APIError } from 'openai';

/** Where the failing call went and what it asked for, for a sentence a person can act on. */
export interface OpenAiCallContext {
  agentName: string;
  serverUrl: string;
  model: string;
  apiKey: string | undefined;
  /** How often the SDK retried (with backoff) before giving up. */
  retries?: number;
}

/**
 * Turns an error from the `openai` SDK into one readable sentence for the thread: the status
 * and the server's own message, never the API key (some servers echo it back).
 */
export function describeOpenAiError(error: unknown, context: OpenAiCallContext): string {
  const { agentName, serverUrl, model } = context;
  const prefix = `${agentName} could not get an answer from the model server at ${serverUrl}`;
  let sentence: string;
  if (error instanceof APIConnectionError) {
    sentence = `${prefix}: the server could not be reached (${connectionDetail(error)}). Check that it is running and that OPENAI_BASE_URL points at it.`;
  } else if (error instanceof APIError) {
    const status = error.status;
    const detail = serverMessage(error);
    const answered = status === undefined ? detail : `it answered ${status}: ${detail}`;
    // 429: the SDK already retried with backoff; say so.
    const tried =
      status === 429 && (context.retries ?? 0) > 0
        ? ` (gave up after ${(context.retries ?? 0) + 1} attempts with backoff)`
        : '';
    sentence = `${prefix}: ${answered}${tried}${hintFor(status, model)}`;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    sentence = `${prefix}: ${message}`;
  }
  return redact(sentence, context.apiKey);
}

function hintFor(status: number | undefined, model: string): string {
  if (status === 401 || status === 403) return '. Check OPENAI_API_KEY.';
  if (status === 404)
    return `. Check the agent's \`model\` (\`${model}\`) and that OPENAI_BASE_URL includes the API path (for example /v1).`;
  return '.';
}

/** The server's `{ error: { message } }`, else the SDK's own message. */
function serverMessage(error: APIError): string {
  const body: unknown = error.error;
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const message: unknown = body.message;
    if (typeof message === 'string' && message.trim() !== '') return stripPeriod(message.trim());
  }
  return stripPeriod(error.message);
}

/**
 * The innermost cause's code or message (e.g. ECONNREFUSED), which says more than "Connection
 * error.". Duck-typed: Node's network errors may come from another realm than `Error`.
 */
function connectionDetail(error: Error): string {
  let detail = error.message;
  let current: unknown = error.cause;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') detail = code;
    else if (typeof message === 'string' && message !== '') detail = message;
    current = cause;
  }
  return stripPeriod(detail);
}

const stripPeriod = (text: string): string => text.replace(/\.+$/, '');

function redact(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}
