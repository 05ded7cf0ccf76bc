import { mentionableIn } from '../../../../src/bots/slack/outbound/slack-mentionable';
import {
  agentTextToMrkdwn,
  slackMentionedUsers,
  slackTextToPlain,
  writtenNicknames,
} from '../../../../src/bots/slack/outbound/slack-mrkdwn';

const members = [
  { nickname: 'dana', slackUserId: 'U0DANA0001' },
  { nickname: 'mia', slackUserId: null },
];

describe('agent text as Slack mrkdwn', () => {
  it('M11: @nickname of a member with a linked account becomes a real mention', () => {
    expect(agentTextToMrkdwn('@dana please review, and @Dana again.', members)).toBe(
      '<@U0DANA0001> please review, and <@U0DANA0001> again.',
    );
  });

  it('M11: a member without a linked account, an unknown name and an e-mail stay text', () => {
    expect(agentTextToMrkdwn('@mia @nobody dana@example.com', members)).toBe('@mia @nobody dana@example.com');
  });

  it('M16: a mention inside code is not a mention', () => {
    expect(agentTextToMrkdwn('run `@dana` and\n```\n@dana\n```\n@dana', members)).toBe(
      'run `@dana` and\n```\n@dana\n```\n<@U0DANA0001>',
    );
  });

  it('<!channel>, <!here>, <!everyone> and a raw <@U…> from an agent are neutralised', () => {
    const out = agentTextToMrkdwn(
      '<!channel> <!here> <!everyone> <@U0MIA00001> <https://x|y> a & b',
      members,
    );
    expect(out).toBe(
      '&lt;!channel&gt; &lt;!here&gt; &lt;!everyone&gt; &lt;@U0MIA00001&gt; &lt;https://x|y&gt; a &amp; b',
    );
    expect(out).not.toMatch(/<[!@]/);
  });
});

describe('a person’s Slack text as the core reads it', () => {
  const context = {
    botUserId: 'U0BOT00001',
    nicknameOf: (id: string) => (id === 'U0DANA0001' ? 'dana' : null),
  };

  it('drops the bot’s mention, names members by nickname, unescapes, labels links and channels', () => {
    expect(
      slackTextToPlain(
        '<@U0BOT00001> @engineer ask <@U0DANA0001> and <@U0OTHER001> in <#C0GENERAL1|general> about <https://x.io|the doc> &amp; a &lt;b&gt;',
        context,
      ),
    ).toBe('@engineer ask @dana and @U0OTHER001 in #general about the doc & a <b>');
  });
});

describe('P8, M11: whom a Slack text names (only they are read)', () => {
  it('a person’s text: the user ids of its mentions, each once, labelled or not', () => {
    expect(slackMentionedUsers('<@U1> and <@U2|dana>, <@U1> again, <#C1|general>, <!here>')).toEqual([
      'U1',
      'U2',
    ]);
    expect(slackMentionedUsers('nobody')).toEqual([]);
  });

  it('an agent’s text: the nicknames it writes, folded, each once (not e-mails)', () => {
    expect(writtenNicknames('@Dana and @dana, @mia.b; dana@example.com')).toEqual(['dana', 'mia.b']);
  });

  it('a turn’s known people are enough until the text names someone else; then the channel’s owner is asked', async () => {
    const known = [{ nickname: 'dana', slackUserId: 'U0DANA0001' }];
    const asked: string[] = [];
    const owner = async (channel: string, nicknames: readonly string[]) => {
      asked.push(`${channel}:${nicknames.join(',')}`);
      return { members: [{ nickname: 'lee', slackUserId: 'U0LEE00001' }] };
    };
    expect(await mentionableIn(owner, 'C1', known)('thanks @Dana')).toBe(known);
    expect(asked).toEqual([]);
    const wider = await mentionableIn(owner, 'C1', known)('thanks @dana and @lee');
    expect(agentTextToMrkdwn('thanks @dana and @lee', wider)).toBe('thanks <@U0DANA0001> and <@U0LEE00001>');
    expect(asked).toEqual(['C1:lee']);
  });
});
