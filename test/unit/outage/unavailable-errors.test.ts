import { redisUnavailable } from '../../../src/adapters/redis/redis-unavailable';
import { ServiceUnavailableError } from '../../../src/core/errors';
import { databaseUnavailable } from '../../../src/storage/store/connection-errors';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** TypeORM's QueryFailedError carries the driver's error as `driverError`. */
const wrapped = (driverError: Error) => Object.assign(new Error(driverError.message), { driverError });

describe('T2 which failures mean the database is away', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      'a server shutting down',
      wrapped(withCode('terminating connection due to administrator command', '57P01')),
    ],
    ['a server starting up', withCode('the database system is starting up', '57P03')],
    ['a connection exception', wrapped(withCode('connection failure', '08006'))],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    [
      'every address of a host refused',
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed'),
    ],
  ])('T2: %s is unavailability', (_, error) => {
    const translated = databaseUnavailable(error, false);
    expect(translated).toBeInstanceOf(ServiceUnavailableError);
    expect(translated).toMatchObject({ service: 'database', maybeDone: false });
  });

  it('T2: lost while committing, it may have been stored', () => {
    expect(databaseUnavailable(new Error('Connection terminated'), true)).toMatchObject({ maybeDone: true });
  });

  it.each([
    ['a unique violation', wrapped(withCode('duplicate key value', '23505'))],
    ['a syntax error', wrapped(withCode('syntax error at or near', '42601'))],
    ['a closed pool', new Error('Cannot use a pool after calling end on the pool')],
    ['not an error', 'ECONNREFUSED'],
  ])('T2: %s is not', (_, error) => {
    expect(databaseUnavailable(error, false)).toBeNull();
  });
});

describe('T2 which failures mean Redis is away', () => {
  it.each([
    ['the offline queue is off', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['a closed connection', new Error('Connection is closed.')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:6379', 'ECONNREFUSED')],
    ['Redis loading its data', new Error('LOADING Redis is loading the dataset in memory')],
  ])('T2: %s is unavailability', (_, error) => {
    expect(redisUnavailable(error)).toMatchObject({ service: 'redis', maybeDone: false });
  });

  it('T2: a command Redis refused is not', () => {
    expect(redisUnavailable(new Error('ERR unknown command'))).toBeNull();
    expect(redisUnavailable('Connection is closed.')).toBeNull();
  });
});
