/** The part of pg-cursor (no published types) that the export runner uses. */
declare module 'pg-cursor' {
  import type { Submittable } from 'pg';
  class Cursor implements Submittable {
    constructor(text: string, values?: unknown[], config?: { rowMode?: 'array'; types?: unknown });
    submit: Submittable['submit'];
    read(rows: number, cb: (err: Error | undefined, rows: any[]) => void): void;
    close(cb: (err?: Error) => void): void;
  }
  export = Cursor;
}
