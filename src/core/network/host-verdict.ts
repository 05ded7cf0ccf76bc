import type { GuardrailDecision } from '../model/guardrail';
import type { HostVerdict, RunReach } from '../model/host-reach';

export interface HostVerdictInput {
  host: string;
  /** The host matches the workspace's `sandbox.allowedDomains`. */
  listed: boolean;
  /** G2, G2a, G2b: the `network` rule resolved for the run's agent and space. */
  decision: GuardrailDecision;
  /** The resolution's explanation (used when the decision is `deny`). */
  reason: string;
}

/**
 * X2, G1: the decision table for one host. `deny` refuses every host; `allow` passes a listed
 * host; `ask` asks about a listed host (an approval card naming it); a host that is not
 * listed is refused under `allow` and `ask` alike, with the sentence that says how to allow it.
 */
export function hostVerdict(input: HostVerdictInput): HostVerdict {
  if (input.decision === 'deny') return { kind: 'refuse', reason: `Refused: ${input.reason}` };
  if (!input.listed) return { kind: 'refuse', reason: notListedSentence(input.host) };
  return input.decision === 'allow' ? { kind: 'pass' } : { kind: 'ask' };
}

/** The sentence for a host outside the allowed domains: names it and says how to allow it. */
export function notListedSentence(host: string): string {
  return (
    `Refused: ${host} is not in this workspace's allowed domains. To let agents reach it, ` +
    `add "${host}" (or a wildcard such as "*.${parentDomain(host)}") to sandbox.allowedDomains ` +
    'in the workspace file and run `summon apply`.'
  );
}

function parentDomain(host: string): string {
  const labels = host.split('.');
  return labels.length > 2 ? labels.slice(1).join('.') : host;
}

/**
 * X2: the whole run at once, from the same inputs as `hostVerdict`: under `deny`, or with no
 * allowed domains, every host is refused, so the run needs no proxy (nor its forward) at all.
 */
export function runReach(
  input: Omit<HostVerdictInput, 'host' | 'listed'> & { allowedDomains: readonly string[] },
): RunReach {
  if (input.decision === 'deny') return { reachable: false, reason: `Refused: ${input.reason}` };
  if (input.allowedDomains.length === 0) return { reachable: false, reason: NO_DOMAINS_SENTENCE };
  return { reachable: true };
}

export const NO_DOMAINS_SENTENCE =
  "Refused: this workspace's allowed domains are empty, so commands reach no host outside the sandbox (the git gateway excepted). " +
  'To let agents reach a host, add it to sandbox.allowedDomains in the workspace file and run `summon apply`.';
