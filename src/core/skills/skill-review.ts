import type { SkillFile } from '../model/skills/skill-files';
import type { GateReport, GateVerdict } from '../model/skills/skill-verdict';
import type { SkillReviewer } from '../ports/skill-sources';
import { checkSkillFiles } from './skill-gate';

/** A6: the full check: the deterministic rules, then (when configured) the model review. */
export interface CheckedSkill {
  report: GateReport;
  verdict: GateVerdict;
  reviewedBy: string | null;
}

/**
 * A fail of either fails. The model is asked only when the rules pass (a known-bad skill
 * is not shown to it); when it cannot answer, this throws and there is no verdict.
 */
export async function checkSkill(
  name: string,
  files: readonly SkillFile[],
  review: { agent: string; reviewer: SkillReviewer } | null,
): Promise<CheckedSkill> {
  const report = checkSkillFiles(name, files);
  if (report.verdict.verdict === 'fail' || review === null)
    return { report, verdict: report.verdict, reviewedBy: null };
  const verdict = await review.reviewer.review({ name, files, report });
  return { report, verdict, reviewedBy: review.agent };
}
