import type { GateRule } from '../model/skills/skill-verdict';

interface LinePattern {
  rule: GateRule;
  pattern: RegExp;
  message: string;
}

const SECRET_WORDS =
  /(\$\{?[A-Z0-9_]*(TOKEN|SECRET|PASSWORD|API_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*\}?|\bprintenv\b|\/proc\/self\/environ|process\.env\b|os\.environ|\.ssh\/id_|\.aws\/credentials|\.netrc\b|\benv\s*\|)/;
const SENDERS = /\b(curl|wget|nc|ncat|netcat|scp|ftp|Invoke-WebRequest|fetch\(|requests\.(post|get))\b/i;

/**
 * A6: instructions a skill must not carry, matched line by line. Each pattern names the rule
 * it enforces; the gate reports the file and line of every match.
 */
export const LINE_PATTERNS: readonly LinePattern[] = [
  {
    rule: 'override-instructions',
    pattern:
      /\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|any|your|the)\b[^.\n]{0,30}\b(instructions?|prompts?|rules|guidelines|directives)\b/i,
    message: 'tries to override earlier instructions',
  },
  {
    rule: 'override-instructions',
    pattern:
      /\b(new|real|actual|updated)\s+system\s+prompt\b|\b(ignore|replace|override|reveal|print)\b[^.\n]{0,20}\bsystem\s+prompt\b|\byou are no longer\b|\bdeveloper mode\b/i,
    message: 'tries to replace or reveal the system prompt',
  },
  {
    rule: 'download-and-execute',
    pattern:
      /\b(curl|wget|fetch|iwr|Invoke-WebRequest)\b[^|\n]*\|\s*(sudo\s+)?(-\S+\s+)*(ba|z|da|k|fi)?sh\b|\b(curl|wget)\b[^|\n]*\|\s*(sudo\s+)?(python[0-9.]*|perl|ruby|node|iex)\b|\b(ba|z)?sh\s+(-c\s+)?["']?\$\(\s*(curl|wget)\b|\b(ba|z)?sh\s+<\(\s*(curl|wget)\b|\bbase64\s+(-d|--decode)\b[^|\n]*\|\s*(ba|z)?sh\b/i,
    message: 'downloads and executes code',
  },
];

/** A6: a long run of base64 or hex: an encoded payload hidden from the reader. */
const ENCODED_BLOB = /[A-Za-z0-9+/]{160,}={0,2}|(?:[0-9a-fA-F]{2}){100,}/;

export interface LineMatch {
  rule: GateRule;
  message: string;
}

/** Every rule one line of instructions breaks, once per rule. */
export function matchLine(line: string): LineMatch[] {
  const found: LineMatch[] = [];
  const add = (rule: GateRule, message: string) => {
    if (!found.some((f) => f.rule === rule)) found.push({ rule, message });
  };
  for (const { rule, pattern, message } of LINE_PATTERNS) if (pattern.test(line)) add(rule, message);
  if (SECRET_WORDS.test(line) && SENDERS.test(line))
    add('exfiltration', 'sends secrets or the environment out');
  else if (
    /\b(send|post|upload|exfiltrate|leak|email)\b[^.\n]{0,40}\b(secrets?|tokens?|api keys?|credentials|passwords?|environment variables|env vars)\b/i.test(
      line,
    )
  )
    add('exfiltration', 'asks to send secrets or the environment out');
  if (ENCODED_BLOB.test(line)) add('encoded-blob', 'carries an encoded blob');
  return found;
}
