export const CODE_NAMES: Record<number, string> = {
  1: 'InternalError',
  2: 'BadValue',
  9: 'FailedToParse',
  14: 'TypeMismatch',
  20: 'IllegalOperation',
  26: 'NamespaceNotFound',
  27: 'IndexNotFound',
  28: 'PathNotViable',
  40: 'ConflictingUpdateOperators',
  43: 'CursorNotFound',
  48: 'NamespaceExists',
  56: 'EmptyFieldName',
  59: 'CommandNotFound',
  66: 'ImmutableField',
  67: 'CannotCreateIndex',
  72: 'InvalidOptions',
  73: 'InvalidNamespace',
  85: 'IndexOptionsConflict',
  86: 'IndexKeySpecsConflict',
  115: 'CommandNotSupported',
  197: 'InvalidIndexSpecificationOption',
  238: 'NotImplemented',
  10334: 'BSONObjectTooLarge',
  11000: 'DuplicateKey',
  40573: 'Location40573',
};

export class MongoCommandError extends Error {
  constructor(
    public code: number,
    message: string,
    public extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get codeName(): string {
    return CODE_NAMES[this.code] ?? `Location${this.code}`;
  }

  toReply(): Record<string, unknown> {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }

  toWriteError(index: number): Record<string, unknown> {
    return { index, code: this.code, errmsg: this.message, ...this.extra };
  }
}

export function fail(code: number, message: string, extra?: Record<string, unknown>): never {
  throw new MongoCommandError(code, message, extra);
}

export function toMongoError(err: unknown): MongoCommandError {
  if (err instanceof MongoCommandError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // mingo reports invalid queries and updates with plain errors; MongoDB answers those as BadValue.
  return new MongoCommandError(2, message);
}
