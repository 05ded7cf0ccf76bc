import fc from 'fast-check';
import { findCodeRanges, maskCode, parseAgentReply, parsePersonMessage } from '../../../src/core/mentions';
import { anyText, mentionInCode, mentionishText } from './mention-arbitraries';
import { agentsNamed, membersNamed } from './mention-fixtures';

const agents = agentsNamed('ceo', 'alice', 'bob', 'architect', 'archivist', 'code-reviewer', 'code');
const members = membersNamed('sam', 'sara');
const person = (text: string) => parsePersonMessage(text, { agents, members });
const reply = (text: string) => parseAgentReply(text, { agents, selfId: 'agent-ceo' });

const insideCode = (text: string, index: number) =>
  findCodeRanges(text).some((range) => range.start <= index && index < range.end);
// M17: what may stand right before a mention's `@`.
const FREE_BEFORE = /[\s([{"'“‘«*_~,;:]/u;

describe('mention parsers: properties', () => {
  it('neither parser nor maskCode throws on any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        person(text);
        reply(text);
        maskCode(text, { chatFences: true });
      }),
      { numRuns: 500 },
    );
  });

  it('M16: maskCode keeps length and line breaks, and changes code characters only', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, chatFences) => {
        const masked = maskCode(text, { chatFences });
        const ranges = findCodeRanges(text, { chatFences });
        expect(masked).toHaveLength(text.length);
        for (let index = 0; index < text.length; index++) {
          const inCode = ranges.some((range) => range.start <= index && index < range.end);
          const expected = inCode && text[index] !== '\n' ? ' ' : text[index];
          if (masked[index] !== expected) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('M7: stripping is idempotent: the stripped text holds no agent mention and comes back unchanged', () => {
    fc.assert(
      fc.property(mentionishText, (text) => {
        const once = person(text).text;
        const twice = person(once);
        expect(twice.agents).toEqual([]);
        expect(twice.text).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('M16: a candidate mentioned inside code is never resolved, by either parser', () => {
    fc.assert(
      fc.property(mentionInCode, (text) => {
        const fromPerson = person(text);
        expect(fromPerson.agents).toEqual([]);
        expect(fromPerson.members).toEqual([]);
        expect(fromPerson.unresolved).toEqual([]);
        expect(reply(text)).toEqual({ agents: [], ambiguous: [], unresolved: [], selfMentioned: false });
      }),
      { numRuns: 500 },
    );
  });

  it('M16/M17: a mention resolved in a reply is outside code, at a free position, and names the agent', () => {
    fc.assert(
      fc.property(mentionishText, (text) => {
        for (const { agent, spans } of reply(text).agents) {
          for (const span of spans) {
            expect(insideCode(text, span.start)).toBe(false);
            expect(text[span.start]).toBe('@');
            expect(span.start === 0 || FREE_BEFORE.test(text[span.start - 1] ?? '')).toBe(true);
            expect(text.slice(span.start + 1, span.end)).toBe(span.token);
            expect(span.token.toLowerCase()).toBe(agent.name.toLowerCase());
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('M12: a person mention resolves to at most one principal, and an agent always wins', () => {
    fc.assert(
      fc.property(mentionishText, (text) => {
        const result = person(text);
        const starts = [
          ...result.agents.flatMap((a) => a.spans),
          ...result.members.flatMap((m) => m.spans),
          ...result.unresolved.flatMap((u) => u.spans),
        ].map((span) => span.start);
        expect(new Set(starts).size).toBe(starts.length);
        for (const { spans } of result.members) {
          for (const span of spans) {
            const token = span.token.toLowerCase();
            expect(agents.some((agent) => agent.name.startsWith(token))).toBe(false);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
