/** Token shapes that are secrets wherever they come from (an agent may print its own keys). */
const TOKEN_SHAPES = [
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g, // Anthropic
  /\bsk-[A-Za-z0-9_-]{20,}/g, // OpenAI and compatible
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bxapp-[A-Za-z0-9-]{10,}/g,
  /(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/gi,
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:[^\s@/]+@/gi, // credentials inside a URL
];

export const REDACTION = '[redacted]';

/**
 * Removes secrets from text that leaves a CLI agent's process (its stderr in an error): the
 * known secret values of Summon's environment, then anything shaped like a token.
 */
export function scrubSecrets(text: string, secretValues: readonly string[]): string {
  let scrubbed = text;
  for (const value of [...secretValues].sort((a, b) => b.length - a.length)) {
    if (value.length > 0) scrubbed = scrubbed.split(value).join(REDACTION);
  }
  for (const shape of TOKEN_SHAPES) scrubbed = scrubbed.replace(shape, REDACTION);
  return scrubbed;
}
