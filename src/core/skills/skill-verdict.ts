import type { GateFinding, GateVerdict } from '../model/skills/skill-verdict';

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
