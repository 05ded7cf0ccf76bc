import { describeSize } from '../../core/attachments/attachment-limits';
import type { DownloadLimits, DownloadResult } from '../../core/ports/attachment-fetcher';
import type { DownloadRequest } from '../../core/ports/bounded-downloader';

/**
 * P13: one bounded HTTP download: at most `maxBytes` (refused by `Content-Length`, or cut off
 * as the body passes it), within `timeoutMs`, redirects not followed (a redirect is how Slack
 * answers a refused token, and a credential must not follow one elsewhere). Never throws; the
 * sentences name the service and the HTTP status, never the URL's query or a header.
 */
export async function boundedDownload(
  request: DownloadRequest,
  limits: DownloadLimits,
): Promise<DownloadResult> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal === undefined ? timeout : AbortSignal.any([timeout, limits.signal]);
  const { service } = request;
  const tooLarge = (): DownloadResult => ({
    ok: false,
    reason: 'too_large',
    sentence: `it is larger than the ${describeSize(limits.maxBytes)} Summon fetches.`,
  });
  try {
    const response = await fetch(request.url, {
      ...(request.headers === undefined ? {} : { headers: { ...request.headers } }),
      redirect: 'manual',
      signal,
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      return {
        ok: false,
        reason: 'refused',
        sentence: `${service} redirected the download instead of serving the file (HTTP ${response.status}): the link or Summon's access to it is no longer valid.`,
      };
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return {
        ok: false,
        reason: 'refused',
        sentence: `${service} refused the download (HTTP ${response.status}).`,
      };
    }
    if (!response.ok) {
      await response.body?.cancel();
      const gone = response.status === 404 ? ': the file is no longer there' : '';
      return { ok: false, reason: 'failed', sentence: `${service} answered HTTP ${response.status}${gone}.` };
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      await response.body?.cancel();
      return tooLarge();
    }
    const bytes = await readAtMost(response, limits.maxBytes);
    if (bytes === null) return tooLarge();
    return { ok: true, bytes, mimeType: response.headers.get('content-type') };
  } catch (error) {
    if (timeout.aborted) {
      return {
        ok: false,
        reason: 'failed',
        sentence: `the download from ${service} took longer than ${Math.round(limits.timeoutMs / 1000)} s.`,
      };
    }
    if (limits.signal?.aborted === true)
      return { ok: false, reason: 'failed', sentence: 'the turn was stopped.' };
    return {
      ok: false,
      reason: 'failed',
      sentence: `the download from ${service} failed (${causeOf(error)}).`,
    };
  }
}

/** The body, or null as soon as it passes `maxBytes` (the rest is not read). */
async function readAtMost(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** A network error's code (`ECONNREFUSED`, …), never the URL it was for. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'network error';
}
