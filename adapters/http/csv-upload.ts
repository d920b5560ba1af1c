import { pipeline, Transform, type Readable } from 'node:stream';
import busboy from 'busboy';
import { CsvError, parse } from 'csv-parse';
import type { Context } from 'koa';
import { problem, Problem } from './problem.js';
import { rawBodyStream } from './raw-body.js';

/** One non-blank record of the file, numbered as a spreadsheet shows it (the first row is 1). */
export interface CsvRecord {
  readonly row: number;
  readonly cells: string[];
}

export interface CsvUpload {
  /** The first non-blank record. */
  readonly header: CsvRecord;
  readonly records: CsvRecord[];
}

export interface UploadLimits {
  readonly maxBytes: number;
  /** Data rows (non-blank records after the header). */
  readonly maxRows: number;
}

/** Room for the multipart boundaries and part headers around the file. */
export const MULTIPART_OVERHEAD = 64 * 1024;

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
const unreadable = (detail: string) => problem('VALIDATION_FAILED', detail, { errors: [{ field: '(body)', message: detail }] });

/** Passes bytes through until more than `max` have gone by, then fails with 413. */
const byteLimit = (max: number) => {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) done(problem('PAYLOAD_TOO_LARGE', `The CSV is larger than ${megabytes(max)}; split it into smaller files.`));
      else done(null, chunk);
    },
  });
};

/** Finds the `file` part of a multipart/form-data body and pipes it into `sink`; any other part is 400. */
const pipeMultipartFile = (ctx: Context, maxBytes: number, sink: Transform): Promise<Readable> =>
  new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      // fileSize one byte over the limit: the byte counter, not busboy's silent truncation, answers 413
      form = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: maxBytes + 1 } });
    } catch (e) {
      return reject(unreadable(`The multipart body cannot be read: ${(e as Error).message}.`));
    }
    let file: Readable | undefined;
    let failed = false;
    const fail = (p: Problem) => {
      failed = true;
      reject(p);
      if (file) sink.destroy(p);
    };
    const oneFile = () =>
      problem('VALIDATION_FAILED', 'Send one CSV file, as the one field "file"; this form holds more.', { errors: [{ field: 'file', message: 'only one file is taken' }] });
    form.on('file', (name, stream) => {
      if (file) {
        stream.resume();
        return fail(oneFile());
      }
      if (name !== 'file') {
        stream.resume();
        return fail(problem('VALIDATION_FAILED', `The form field ${name} is unknown; send the CSV as the one field "file".`, { errors: [{ field: name, message: 'is not a known field' }] }));
      }
      file = stream;
      stream.on('error', (e: Error) => fail(unreadable(`The uploaded file cannot be read: ${e.message}.`)));
      // The sink ends only with the whole form, so a second file found after this one still refuses the upload.
      stream.pipe(sink, { end: false });
      resolve(stream);
    });
    form.on('field', (name) => fail(problem('VALIDATION_FAILED', `The form field ${name} is unknown; send the CSV as the one field "file".`, { errors: [{ field: name, message: 'is not a known field' }] })));
    form.on('error', (e: Error) => fail(unreadable(`The multipart body cannot be read: ${e.message}.`)));
    form.on('filesLimit', () => fail(oneFile()));
    form.on('close', () => {
      if (file) return void (failed || sink.end());
      reject(problem('VALIDATION_FAILED', 'The form has no "file" field holding the CSV.', { errors: [{ field: 'file', message: 'is required' }] }));
    });
    rawBodyStream(ctx).pipe(form);
  });

/**
 * Reads a CSV upload, streaming: the body itself (text/csv) or the `file` part of multipart/form-data.
 * More than `maxBytes` or `maxRows` is 413, as soon as it is seen; malformed CSV is 400 naming the line.
 * UTF-8 with or without a BOM; quotes inside an unquoted cell are taken literally; blank rows are
 * skipped but keep their number, so row numbers are the ones a spreadsheet shows.
 */
export const readCsvUpload = async (ctx: Context, limits: UploadLimits): Promise<CsvUpload> => {
  const multipart = Boolean(ctx.is('multipart/form-data'));
  const declared = Number(ctx.get('content-length') || Number.NaN);
  if (declared > limits.maxBytes + (multipart ? MULTIPART_OVERHEAD : 0)) {
    throw problem('PAYLOAD_TOO_LARGE', `The CSV is larger than ${megabytes(limits.maxBytes)}; split it into smaller files.`);
  }
  const counted = byteLimit(limits.maxBytes);
  const parser = parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false });
  pipeline(counted, parser, () => undefined); // errors reach the loop below through the parser
  try {
    if (multipart) await pipeMultipartFile(ctx, limits.maxBytes, counted);
    else {
      const body = rawBodyStream(ctx);
      body.on('error', (e: Error) => counted.destroy(unreadable(`The body cannot be read: ${e.message}.`)));
      body.pipe(counted);
    }
    let header: CsvRecord | undefined;
    const records: CsvRecord[] = [];
    let row = 0;
    for await (const cells of parser as AsyncIterable<string[]>) {
      row += 1;
      // PostgreSQL text cannot hold a NUL character: the file is refused here, not at the database.
      const withNul = cells.findIndex((c) => c.includes('\u0000'));
      if (withNul >= 0) throw unreadable(`Row ${row}, column ${withNul + 1} contains a NUL character (\\u0000), which text cannot hold.`);
      if (cells.every((c) => c.trim() === '')) continue;
      if (!header) header = { row, cells };
      else if (records.length === limits.maxRows) {
        throw problem('PAYLOAD_TOO_LARGE', `The CSV has more than ${limits.maxRows} rows; split it into smaller files.`);
      } else records.push({ row, cells });
    }
    if (!header) throw unreadable('The CSV is empty; its first row must be the header (sku,name,price,...).');
    return { header, records };
  } catch (e) {
    if (e instanceof CsvError) throw unreadable(`The CSV is malformed: ${e.message}.`);
    throw e;
  } finally {
    counted.destroy();
    if (!ctx.req.readableEnded) {
      // Read and drop the rest, so the client finishes sending and gets the answer.
      ctx.req.unpipe();
      ctx.req.resume();
    }
  }
};
