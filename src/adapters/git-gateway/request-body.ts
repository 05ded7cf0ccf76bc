import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type CommandParse,
  parseReceivePackCommands,
  type ReceivePackCommands,
} from './receive-pack-commands';

/** The command section must fit in this much; a pack may follow, of any size. */
const MAX_COMMAND_BYTES = 4 * 1024 * 1024;

/**
 * A receive-pack request body read just far enough to know its commands: `head` holds the bytes
 * read so far (commands, options, maybe the start of the pack), `rest` the unread remainder.
 */
export interface PushBody {
  commands: ReceivePackCommands;
  head: Buffer;
  rest: AsyncIterator<Buffer>;
}

export async function readPushCommands(
  source: Readable,
): Promise<{ ok: true; body: PushBody } | { ok: false; reason: string }> {
  const iterator = source
    .iterator({ destroyOnReturn: false })
    [Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let parsed: CommandParse = { kind: 'incomplete' };
  for (;;) {
    const next = await iterator.next();
    if (next.done) {
      parsed = parseReceivePackCommands(Buffer.concat(chunks));
      if (parsed.kind === 'incomplete')
        return { ok: false, reason: 'the request ended inside its command list' };
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
    parsed = parseReceivePackCommands(Buffer.concat(chunks));
    if (parsed.kind !== 'incomplete') break;
    if (length > MAX_COMMAND_BYTES) return { ok: false, reason: 'the command list is too long' };
  }
  if (parsed.kind === 'invalid') return { ok: false, reason: parsed.reason };
  if (parsed.kind !== 'complete') return { ok: false, reason: 'the command list is incomplete' };
  return { ok: true, body: { commands: parsed.commands, head: Buffer.concat(chunks), rest: iterator } };
}

/** The whole body again, streamed: what was read, then the remainder. */
export function streamBody(body: PushBody): Readable {
  return Readable.from(
    (async function* () {
      yield body.head;
      for (;;) {
        const next = await body.rest.next();
        if (next.done) return;
        yield next.value;
      }
    })(),
    { objectMode: false },
  );
}

/** Reads the remainder and throws it away (a refused push: nothing is kept or sent). */
export async function drain(body: PushBody): Promise<void> {
  for (;;) if ((await body.rest.next()).done) return;
}

/** A body spooled to disk while it waits (never held in memory). */
export interface SpooledBody {
  head: Buffer;
  file: string;
  length: number;
  /** The body from its first byte. */
  open(): Readable;
  /** The pack alone (from `packOffset`), for inspection. */
  openPack(): Readable | null;
}

export async function spool(body: PushBody, file: string): Promise<SpooledBody> {
  const rest = Readable.from(
    (async function* () {
      for (;;) {
        const next = await body.rest.next();
        if (next.done) return;
        yield next.value;
      }
    })(),
    { objectMode: false },
  );
  await pipeline(rest, createWriteStream(file));
  const size = (await stat(file)).size;
  const { head } = body;
  const packOffset = body.commands.packOffset;
  const concat = (first: Buffer) =>
    Readable.from(
      (async function* () {
        yield first;
        for await (const chunk of createReadStream(file)) yield chunk as Buffer;
      })(),
      { objectMode: false },
    );
  return {
    head,
    file,
    length: head.length + size,
    open: () => concat(head),
    openPack: () => (head.length + size > packOffset ? concat(head.subarray(packOffset)) : null),
  };
}
