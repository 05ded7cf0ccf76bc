import { FairSemaphore } from '../../../src/adapters/sandbox/fair-semaphore';
import { RunProcessSlots } from '../../../src/adapters/sandbox/run-process-slots';

/** A wait for a person, ended by the test. */
function personWait<T>(answer: T) {
  let decide = () => {};
  const decided = new Promise<T>((resolve) => {
    decide = () => resolve(answer);
  });
  return { wait: () => decided, decide: () => decide() };
}

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('RunProcessSlots: a run waiting for a person holds no process slot (T1, T3)', () => {
  it('gives the slot back while waiting (the next process in line starts) and takes it again before the wait returns', async () => {
    const semaphore = new FairSemaphore(1);
    const slots = new RunProcessSlots(semaphore);
    const pushing = await slots.hold('run-a');
    const other = slots.hold('run-b');
    expect(await settled(other)).toBe(false);

    const person = personWait('allow');
    const suspended = slots.suspendWhile('run-a', person.wait);
    const otherRelease = await other; // run-b's process runs while run-a waits
    expect(semaphore.active).toBe(1);

    person.decide();
    expect(await settled(suspended)).toBe(false); // the slot is run-b's: run-a waits its turn
    otherRelease();
    expect(await suspended).toBe('allow');
    expect(semaphore.active).toBe(1); // run-a's process holds its slot again
    pushing();
    expect(semaphore.active).toBe(0);
  });

  it('takes the slot again in fair order: behind every process that queued before the wait ended', async () => {
    const semaphore = new FairSemaphore(1);
    const slots = new RunProcessSlots(semaphore);
    const order: string[] = [];
    const pushing = await slots.hold('run-a');
    const person = personWait('allow');
    const suspended = slots.suspendWhile('run-a', person.wait).then(() => order.push('a runs on'));
    const b = slots.hold('run-b').then((release) => {
      order.push('b');
      return release;
    });
    const c = slots.hold('run-c').then((release) => {
      order.push('c');
      return release;
    });
    (await b)(); // b had the slot run-a gave back; c was queued before run-a's wait ended
    person.decide();
    await new Promise((resolve) => setImmediate(resolve));
    (await c)();
    await suspended;
    expect(order).toEqual(['b', 'c', 'a runs on']);
    pushing();
    expect(semaphore.active).toBe(0);
    expect(semaphore.queued).toBe(0);
  });

  it('aborted while waiting to take the slot again: returns at once; the process keeps its place in line, and its end leaves the line', async () => {
    const semaphore = new FairSemaphore(1);
    const slots = new RunProcessSlots(semaphore);
    const pushing = await slots.hold('run-a');
    const person = personWait('allow');
    const client = new AbortController();
    const suspended = slots.suspendWhile('run-a', person.wait, client.signal);
    const other = await slots.hold('run-b');
    person.decide();
    expect(await settled(suspended)).toBe(false);
    expect(semaphore.queued).toBe(1); // run-a's process, waiting for its slot
    client.abort();
    expect(await suspended).toBe('allow');
    pushing(); // its process ends before its turn came: out of the line, nothing leaks
    expect(semaphore.queued).toBe(0);
    other();
    expect(semaphore.active).toBe(0);
  });

  it('a process that ends while its run waits drops the lent slot: the wait takes nothing back', async () => {
    const semaphore = new FairSemaphore(1);
    const slots = new RunProcessSlots(semaphore);
    const pushing = await slots.hold('run-a');
    const person = personWait('expired');
    const suspended = slots.suspendWhile('run-a', person.wait);
    expect(semaphore.active).toBe(0);
    pushing(); // e.g. the bash call timed out while its push was held
    pushing(); // once only
    person.decide();
    expect(await suspended).toBe('expired');
    expect(semaphore.active).toBe(0);
    expect(semaphore.queued).toBe(0);
  });

  it('counts overlapping waits of one run: each gives back one slot while the run holds one, and takes back what it gave', async () => {
    const semaphore = new FairSemaphore(3);
    const slots = new RunProcessSlots(semaphore);
    const first = await slots.hold('run-a');
    const second = await slots.hold('run-a');
    const one = personWait(1);
    const two = personWait(2);
    const three = personWait(3);
    const waitOne = slots.suspendWhile('run-a', one.wait);
    const waitTwo = slots.suspendWhile('run-a', two.wait);
    const waitThree = slots.suspendWhile('run-a', three.wait); // nothing left to give back
    expect(semaphore.active).toBe(0);
    one.decide();
    expect(await waitOne).toBe(1);
    expect(semaphore.active).toBe(1);
    three.decide();
    expect(await waitThree).toBe(3);
    expect(semaphore.active).toBe(1);
    two.decide();
    expect(await waitTwo).toBe(2);
    expect(semaphore.active).toBe(2);
    first();
    second();
    expect(semaphore.active).toBe(0);
  });

  it('a wait that starts again while its run is taking a slot back gives that back instead', async () => {
    const semaphore = new FairSemaphore(1);
    const slots = new RunProcessSlots(semaphore);
    const agent = await slots.hold('run-a');
    const first = personWait('allow');
    const waitFirst = slots.suspendWhile('run-a', first.wait);
    const other = await slots.hold('run-b');
    first.decide();
    expect(await settled(waitFirst)).toBe(false);
    const second = personWait('deny');
    const waitSecond = slots.suspendWhile('run-a', second.wait);
    expect(await waitFirst).toBe('allow'); // its process waits again: it goes on without the slot
    expect(semaphore.queued).toBe(0);
    other();
    second.decide();
    expect(await waitSecond).toBe('deny');
    expect(semaphore.active).toBe(1);
    agent();
    expect(semaphore.active).toBe(0);
  });

  it('a run with no process here (and a process of no run) just waits: nothing is given back', async () => {
    const semaphore = new FairSemaphore(1);
    const slots = new RunProcessSlots(semaphore);
    const anonymous = await slots.hold(undefined);
    const person = personWait('allow');
    const suspended = slots.suspendWhile('run-elsewhere', person.wait);
    expect(semaphore.active).toBe(1);
    person.decide();
    expect(await suspended).toBe('allow');
    anonymous();
    expect(semaphore.active).toBe(0);
  });
});
