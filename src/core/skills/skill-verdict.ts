/** A6: the rules of the supply-chain check; each finding names one. */
export const GATE_RULES = [
  'front-matter',
  'size',
  'symlink',
  'hidden-file',
  'binary',
  'executable',
  'unlisted-script',
  'override-instructions',
  'exfiltration',
  'download-and-execute',
  'encoded-blob',
  'model-review',
] as const;
export type GateRule = (typeof GATE_RULES)[number];

export interface GateFinding {
  rule: GateRule;
  file: string;
  /** 1-based, for findings about a line of a text file. */
  line?: number;
  message: string;
}

/**
 * A6: a verdict is `pass` or `fail` with its reasons. "No verdict" (the check could not
 * run) is not a value here: it is an error, and nothing is written.
 */
export type GateVerdict = { verdict: 'pass' } | { verdict: 'fail'; reasons: GateFinding[] };

export function verdictOf(findings: readonly GateFinding[]): GateVerdict {
  return findings.length === 0 ? { verdict: 'pass' } : { verdict: 'fail', reasons: [...findings] };
}

/** One line per finding: `file:line rule: message`. */
export function formatFinding(finding: GateFinding): string {
  const where = finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`;
  return `${where} ${finding.rule}: ${finding.message}`;
}

export function formatVerdict(verdict: GateVerdict): string {
  if (verdict.verdict === 'pass') return 'verdict: pass';
  return ['verdict: fail', ...verdict.reasons.map((r) => `  ${formatFinding(r)}`)].join('\n');
}
