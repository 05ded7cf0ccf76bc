import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import { DiscordRequestError, scrubTokens, withoutTokens } from '../../../../src/bots/discord/discord-errors';
import { isNewer } from '../../../../src/bots/discord/discord-thread-id';
import { decodeCustomId, encodeCustomId } from '../../../../src/bots/discord/outbound/custom-id';
import {
  mentionedUserIds,
  mentionMembers,
  translateUserMentions,
  writtenNicknames,
} from '../../../../src/bots/discord/outbound/discord-mentions';
import {
  mentionedIn,
  renderEditBody,
  renderWebhookBodies,
} from '../../../../src/bots/discord/outbound/discord-render';
import { toDeliveryError } from '../../../../src/bots/discord/outbound/discord-sender';
import { webhookUsername } from '../../../../src/bots/discord/outbound/webhook-username';
import type { DeliveryError } from '../../../../src/core/outbox/delivery-error';

const members = [
  { nickname: 'dana', discordUserId: '2001' },
  { nickname: 'mo', discordUserId: '2002' },
];

describe('Discord pieces', () => {
  it('custom ids carry only a record id and stay within 100 characters (cards survive restarts)', () => {
    const id = '0b7e3c1e-6f4f-4c1b-9a53-8a4f0f0b7d21';
    const approve = encodeCustomId({ kind: 'approval', verdict: 'approve', approvalId: id });
    expect(approve).toBe(`approval:approve:${id}`);
    expect(approve.length).toBeLessThanOrEqual(100);
    expect(decodeCustomId(approve)).toEqual({ kind: 'approval', verdict: 'approve', approvalId: id });
    expect(decodeCustomId(encodeCustomId({ kind: 'note', action: 'fold', messageId: id }))).toEqual({
      kind: 'note',
      action: 'fold',
      messageId: id,
    });
    // N13: an option button carries the option number and the question id.
    const answer = encodeCustomId({ kind: 'answer', option: 25, questionId: id });
    expect(answer).toBe(`answer:25:${id}`);
    expect(decodeCustomId(answer)).toEqual({ kind: 'answer', option: 25, questionId: id });
    // P15: Stop carries the run id.
    const stop = encodeCustomId({ kind: 'stop', runId: id });
    expect(stop).toBe(`stop:run:${id}`);
    expect(decodeCustomId(stop)).toEqual({ kind: 'stop', runId: id });
    for (const other of [
      'answer:0:q1',
      'answer:x:q1',
      'answer:100:q1',
      'approve:42',
      'approval:maybe:1',
      'stop:now:r1',
      'note:open:',
      'note:open:a b',
      `note:open:${'a'.repeat(90)}`,
    ])
      expect(decodeCustomId(other)).toBeNull();
    expect(() => encodeCustomId({ kind: 'note', action: 'open', messageId: 'x'.repeat(100) })).toThrow(
      RangeError,
    );
  });

  it('M11: an agent’s @nickname of a member becomes a mention that may ping only that member', () => {
    expect(mentionMembers('@dana and @DANA, @everyone, @here, @nobody, `@mo`, mail a@mo', members)).toEqual({
      content: '<@2001> and <@2001>, @everyone, @here, @nobody, `@mo`, mail a@mo',
      allowedMentions: { parse: [], users: ['2001'] },
    });
  });

  it('inbound user mentions read @nickname for members, the display name otherwise; the bot’s own is dropped', () => {
    const names = new Map([['3003', 'Stranger']]);
    expect(
      translateUserMentions('<@1000> <@!2001> ask <@3003> and <@4004>', {
        botUserId: '1000',
        members,
        names,
      }),
    ).toBe('@dana ask @Stranger and <@4004>');
  });

  it('webhook usernames avoid what Discord refuses', () => {
    expect(webhookUsername('engineer')).toBe('engineer');
    expect(webhookUsername('discord-bot')).not.toMatch(/discord/i);
    expect(webhookUsername('Clyde')).not.toMatch(/clyde/i);
    expect(webhookUsername('everyone')).toBe('everyone (agent)');
    expect(webhookUsername('a'.repeat(100))).toHaveLength(80);
  });

  it('P9: a status card is one embed; an edit leaves the persona out', () => {
    const message = {
      as: { kind: 'agent' as const, name: 'engineer', avatarUrl: 'https://example.com/e.png' },
      content: {
        kind: 'status' as const,
        card: {
          agent: 'engineer',
          state: 'working' as const,
          headline: 'Working on it…',
          rows: ['git status'],
        },
      },
    };
    const [body, ...rest] = renderWebhookBodies(message, members);
    expect(rest).toEqual([]);
    expect(body).toMatchObject({
      username: 'engineer',
      avatar_url: 'https://example.com/e.png',
      content: '',
      embeds: [{ title: 'engineer · working', description: 'Working on it…\n• git status' }],
      allowed_mentions: { parse: [], users: [] },
    });
    const edit = renderEditBody(message, members);
    expect(edit).not.toHaveProperty('username');
    expect(edit).not.toHaveProperty('avatar_url');
    // P15: no run, no Stop; a working card of a run has one, a finished card none.
    expect(body?.components).toEqual([]);
    const card = { ...message.content.card, stopRunId: 'r-1' };
    const [stoppable] = renderWebhookBodies({ ...message, content: { kind: 'status', card } }, members);
    expect(stoppable?.components).toEqual([
      { type: 1, components: [{ type: 2, style: 4, label: 'Stop', custom_id: 'stop:run:r-1' }] },
    ]);
    const [stopped] = renderWebhookBodies(
      { ...message, content: { kind: 'status', card: { ...card, state: 'stopped' } } },
      members,
    );
    expect(stopped?.components).toEqual([]);
  });

  it('G4 a long approval card keeps its first lines, counts the rest and always shows the verdict', () => {
    const details = Array.from({ length: 300 }, (_, i) => `topic-${i + 1}: (new) → 2222222 — new branch`);
    const [body] = renderWebhookBodies(
      {
        as: { kind: 'system' as const },
        content: {
          kind: 'approval' as const,
          card: {
            approvalId: 'ap-1',
            agent: 'engineer',
            action: 'push_to_remote',
            summary: 'push to acme/api topic-1 and 299 more refs',
            details,
            status: 'pending' as const,
            decidedBy: null,
          },
        },
      },
      members,
    );
    const description = body?.embeds?.[0]?.description ?? '';
    expect(description.length).toBeLessThanOrEqual(4096);
    expect(description).toMatch(/\n… and \d+ more lines\n\nWaiting for an owner, admin or approver\.$/);
    expect(description).toContain('topic-1: (new)');
  });

  it('W1 a routine proposal’s card offers Confirm / Cancel, and decided says Confirmed by its decider', () => {
    const proposal = (status: 'pending' | 'approved' | 'denied', decidedBy: string | null) =>
      renderWebhookBodies(
        {
          as: { kind: 'system' as const },
          content: {
            kind: 'approval' as const,
            card: {
              approvalId: 'ap-2',
              agent: 'engineer',
              action: 'schedule_routine',
              summary: 'routine ops/standup, proposed by engineer',
              details: ['Schedule: on weekdays at 09:00 (`0 9 * * 1-5`)', 'Time zone: Europe/Prague'],
              status,
              decidedBy,
            },
          },
        },
        members,
      )[0];
    const row = proposal('pending', null)?.components?.[0] as { components: { label: string }[] } | undefined;
    expect(row?.components.map((b) => b.label)).toEqual(['Confirm', 'Cancel']);
    expect(proposal('approved', 'dana')?.embeds?.[0]?.description).toMatch(/\n\nConfirmed by dana\.$/);
    expect(proposal('denied', 'dana')?.embeds?.[0]?.description).toMatch(/\n\nCancelled by dana\.$/);
    expect(proposal('approved', 'dana')?.components).toEqual([]);
  });

  it('snowflakes compare as numbers', () => {
    expect(isNewer('10000000000000000000', '9999999999999999999')).toBe(true);
    expect(isNewer('5', '5')).toBe(false);
  });
});

describe('Discord request errors', () => {
  it('carry no webhook or interaction token', async () => {
    const { DiscordAPIError } = await import('discord.js');
    const url = 'https://discord.com/api/v10/webhooks/123/secret-webhook-token?wait=true&thread_id=9';
    const failing = () =>
      Promise.reject(
        new DiscordAPIError({ code: 10015, message: 'Unknown Webhook' }, 10015, 404, 'POST', url, {}),
      );
    const error = await withoutTokens(failing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordRequestError);
    expect(error).toMatchObject({ status: 404, code: 10015 });
    expect(JSON.stringify(error) + String(error) + (error as DiscordRequestError).request).not.toContain(
      'secret-webhook-token',
    );
    expect(scrubTokens('/interactions/55/itok-secret/callback')).toBe('/interactions/55/[redacted]/callback');
  });
});

describe('P7: Discord errors as the outbox’s advice', () => {
  const url = 'https://discord.com/api/v10/webhooks/123/secret-webhook-token?wait=true';
  const noToken = (error: DeliveryError) => {
    expect(JSON.stringify({ message: error.message, cause: String(error.cause) })).not.toContain(
      'secret-webhook-token',
    );
    expect(Object.values(error.cause as object)).not.toContain(url);
  };

  it('a 429 waits what Discord asked; a 5xx backs off; a 4xx is never retried; none carries a token', () => {
    const limited = toDeliveryError(
      'webhook.execute',
      new RateLimitError({
        timeToReset: 900,
        limit: 5,
        method: 'POST',
        hash: 'h',
        url,
        route: '/webhooks/:id/:token',
        majorParameter: '123',
        global: false,
        retryAfter: 1050,
        sublimitTimeout: 0,
        scope: 'user',
      }),
    );
    expect(limited.retry).toEqual({ kind: 'after', ms: 1050 });
    noToken(limited);
    const outage = toDeliveryError(
      'webhook.execute',
      new HTTPError(502, 'Bad Gateway', 'POST', url, { body: {} }),
    );
    expect(outage.retry).toEqual({ kind: 'backoff' });
    noToken(outage);
    const refused = toDeliveryError(
      'webhook.execute',
      new DiscordAPIError({ code: 10003, message: 'Unknown Channel' }, 10003, 404, 'POST', url, { body: {} }),
    );
    expect(refused.retry).toEqual({ kind: 'never' });
    expect(refused.message).toContain('10003');
    noToken(refused);
    const network = toDeliveryError('webhook.execute', new Error(`fetch failed for ${url}`));
    expect(network.retry).toEqual({ kind: 'backoff' });
    noToken(network);
  });
});

describe('P8, M11: whom a Discord text names (only they are read)', () => {
  it('a person’s text: the user ids of its mentions, each once', () => {
    expect(mentionedUserIds('<@100> <@!200> <@100> <@&300> <#400>')).toEqual(['100', '200']);
  });

  it('an agent’s text: the nicknames it writes, folded, each once; a card or a system message names nobody', () => {
    expect(writtenNicknames('@Dana, @dana and @lee.b; dana@example.com')).toEqual(['dana', 'lee.b']);
    const text = { kind: 'text' as const, text: '@dana look' };
    expect(mentionedIn({ as: { kind: 'agent', name: 'engineer', avatarUrl: null }, content: text })).toEqual({
      nicknames: ['dana'],
    });
    expect(mentionedIn({ as: { kind: 'system' }, content: text })).toEqual({ nicknames: [] });
  });
});
