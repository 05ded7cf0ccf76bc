/**
 * P14: what a stream still has to show once the runner's final reply is known, given what it
 * streamed so far. The reply follows where the stream left off when the stream is its start;
 * a stream that already ends with the reply (the agent's words between tool calls above it)
 * needs nothing more; anything else gets the whole reply after it, so the reply is never lost.
 */
export function replyTail(streamed: string, reply: string): string {
  if (reply.startsWith(streamed)) return reply.slice(streamed.length);
  const answer = reply.trim();
  if (answer === '' || streamed.trimEnd().endsWith(answer)) return '';
  return `${streamed.endsWith('\n') ? '\n' : '\n\n'}${reply}`;
}
