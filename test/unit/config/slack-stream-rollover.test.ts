import { loadConfig } from '../../../src/config/config';

const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' };

describe('P14: SLACK_STREAM_ROLLOVER_SECONDS', () => {
  it('is unset by default (the Slack front end keeps 240 s)', () => {
    expect(loadConfig(slack).slack?.streamRolloverMs).toBeUndefined();
  });

  it('reads whole seconds as milliseconds', () => {
    expect(loadConfig({ ...slack, SLACK_STREAM_ROLLOVER_SECONDS: '120' }).slack?.streamRolloverMs).toBe(
      120_000,
    );
  });

  it.each(['0', '291', '1.5', 'soon'])('refuses %s with a sentence naming the variable', (value) => {
    expect(() => loadConfig({ ...slack, SLACK_STREAM_ROLLOVER_SECONDS: value })).toThrow(
      /SLACK_STREAM_ROLLOVER_SECONDS must be a whole number of seconds from 1 to 290/,
    );
  });
});
