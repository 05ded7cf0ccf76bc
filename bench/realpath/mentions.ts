import { Agent, request } from 'node:http';
import { sign } from '../../test/support/slack-delivery';
import { nsToMs } from '../core/stats';
import { type BenchStandIns, BOT_USER, CHANNEL, markerOf, PERSON, SIGNING_SECRET, TEAM } from './stand-ins';

/** One mention's two ends: Slack's delivery acknowledged, and the reply seen at the stand-in. */
export interface MentionTimes {
  /** The mention's ts: its thread's. */
  ts: string;
  ackMs: number;
  /** When the reply arrived (process.hrtime.bigint()). */
  replyAt: bigint;
}

let sequence = 0;

/**
 * Sends mentions as Slack does: each a top-level `<@bot> @engineer …` by a person in the bound
 * channel (so each starts its own thread and no two share a lane), kept first at the Slack
 * stand-in as the message Slack holds, then delivered as a signed `app_mention`
 * `event_callback` over HTTP. Slack sends each event once the message exists and expects the
 * ack within 3 s.
 */
export class MentionSender {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly eventsUrl: string,
    private readonly standIns: BenchStandIns,
  ) {}

  /** Sends one mention now; `due` is when it was due (open loop), the ack is timed from it. */
  async send(due: bigint): Promise<MentionTimes> {
    sequence += 1;
    const text = `<@${BOT_USER}> @engineer ping ${markerOf(sequence)}`;
    const ts = this.standIns.slack.addPersonMessage(CHANNEL, null, { user: PERSON, text });
    const reply = this.standIns.replyTo(ts);
    const body = JSON.stringify(envelope(text, ts, sequence));
    const status = await this.post(body);
    const ackMs = nsToMs(process.hrtime.bigint() - due);
    if (status !== 200) throw new Error(`the event was answered ${status}`);
    return { ts, ackMs, replyAt: await reply };
  }

  /** Sends one mention now and resolves with its ts once Slack's delivery is acknowledged (the reply is not awaited). */
  async deliver(): Promise<string> {
    sequence += 1;
    const text = `<@${BOT_USER}> @engineer ping ${markerOf(sequence)}`;
    const ts = this.standIns.slack.addPersonMessage(CHANNEL, null, { user: PERSON, text });
    const status = await this.post(JSON.stringify(envelope(text, ts, sequence)));
    if (status !== 200) throw new Error(`the event was answered ${status}`);
    return ts;
  }

  close(): void {
    this.agent.destroy();
  }

  private async post(body: string): Promise<number> {
    try {
      return await this.postOnce(body);
    } catch (error) {
      // A kept-alive socket the bot's server closed as idle just as it was reused: the request
      // never reached it (Node's documented race, `request.reusedSocket`), so it is sent again
      // on a fresh socket, as Slack sends a delivery again.
      if (!(error instanceof ResetOnReusedSocket)) throw error;
      return this.postOnce(body);
    }
  }

  private postOnce(body: string): Promise<number> {
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...sign(body, Math.floor(Date.now() / 1000), SIGNING_SECRET),
    };
    return new Promise((resolve, reject) => {
      const req = request(this.eventsUrl, { method: 'POST', agent: this.agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', (error: NodeJS.ErrnoException) =>
        reject(req.reusedSocket && error.code === 'ECONNRESET' ? new ResetOnReusedSocket(error) : error),
      );
      req.end(body);
    });
  }
}

/** ECONNRESET on a socket the agent reused: the request was not taken. */
class ResetOnReusedSocket extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
  }
}

function envelope(text: string, ts: string, n: number): Record<string, unknown> {
  return {
    token: 'bench-verification-token',
    team_id: TEAM,
    api_app_id: 'A0BENCH001',
    event: {
      type: 'app_mention',
      text,
      user: PERSON,
      ts,
      event_ts: ts,
      team: TEAM,
      channel: CHANNEL,
      blocks: [
        {
          type: 'rich_text',
          block_id: `b${n}`,
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'user', user_id: BOT_USER },
                { type: 'text', text: text.slice(BOT_USER.length + 3) },
              ],
            },
          ],
        },
      ],
    },
    type: 'event_callback',
    event_id: `Ev0BENCH${String(n).padStart(8, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: TEAM, user_id: BOT_USER, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
  };
}
