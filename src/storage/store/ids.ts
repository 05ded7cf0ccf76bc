const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from chat commands and URLs too: a malformed one finds nothing instead of failing the query. */
export const isUuid = (value: string): boolean => UUID.test(value);
