/**
 * Discord refuses a webhook `username` of more than 80 characters, one that contains
 * "discord" or "clyde", or that is "everyone" or "here"; such a name is adjusted rather than
 * the post lost (P2: the agent still shows under a recognisable name).
 */
export function webhookUsername(name: string): string {
  let safe = name
    .replace(/discord/gi, (m) => `${m.slice(0, 3)}\u200b${m.slice(3)}`)
    .replace(/clyde/gi, (m) => `${m.slice(0, 2)}\u200b${m.slice(2)}`)
    .trim();
  if (/^(everyone|here)$/i.test(safe)) safe = `${safe} (agent)`;
  if (safe === '') safe = 'agent';
  return safe.length > 80 ? safe.slice(0, 80) : safe;
}
