/**
 * Reading a multipart/form-data request that carries at most one file (an upload, a recording):
 * its text fields and the file's bytes, name and type, with the size limit turned into the
 * product's 413 instead of @fastify/multipart's generic error. One reader for every such route
 * (files, test-chat and widget voice notes, audio effects, broadcasts, the owner's voice replies).
 *
 * Issue 24 §7: a malformed or truncated form (no boundary, a part cut short, a bad part header,
 * the connection closed mid-body: busboy's and @fastify/multipart's errors) is the client's
 * fault and answers 400 with {@link MALFORMED_FORM}, never a 500.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** What a single-file form carried. */
export interface SingleFileForm {
  fields: Record<string, string>;
  /** The file, when one came. */
  file?: { name: string; data: Buffer; mime: string | null };
}

/** What a single-file form carried, its file spooled to disk ({@link readSingleFileUpload}). */
export interface SpooledForm {
  fields: Record<string, string>;
  /** The file, when one came: its bytes are in `data.path` (`data.size` bytes). */
  file?: { name: string; data: { path: string; size: number }; mime: string | null };
  /** Removes the spooled file. Call it when done (in a `finally`); never throws. */
  dispose(): Promise<void>;
}

/** Options of {@link readSingleFileForm} and {@link readSingleFileUpload}. */
export interface FormOptions {
  maxBytes: number;
  tooLarge: (name: string) => string;
  notMultipart: string;
  maxFields?: number;
  beforeFile?: (fields: Record<string, string>) => Promise<void>;
}

/** 400: the form could not be read (busboy's "Unexpected end of form", "Malformed part header", …). */
export const MALFORMED_FORM =
  'El formulario está incompleto o mal formado. Envíalo de nuevo como multipart/form-data.';
/** 400: a second file in a form that takes one (@fastify/multipart `FST_FILES_LIMIT`). */
export const ONE_FILE_ONLY = 'Envía un solo archivo.';
/** 413: more text fields or parts than the form takes (`FST_FIELDS_LIMIT`, `FST_PARTS_LIMIT`). */
export const TOO_MANY_FIELDS = 'El formulario tiene demasiados campos.';

/**
 * The 4xx an error met while reading the form means. Every error here comes from the request's
 * bytes or its connection (busboy, @fastify/multipart's limits, a client that went away), so none
 * is a server failure: a file over the size limit is 413 (`tooLarge`), too many fields 413, a
 * second file 400, anything else 400 {@link MALFORMED_FORM}.
 */
function formError(err: unknown, fileName: string | undefined, tooLarge: (name: string) => string): AppError {
  if (err instanceof AppError) return err;
  switch ((err as { code?: unknown } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', tooLarge(fileName ?? ''));
    case 'FST_FILES_LIMIT':
      return new AppError('BAD_REQUEST', ONE_FILE_ONLY);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', TOO_MANY_FIELDS);
    default:
      return new AppError('BAD_REQUEST', MALFORMED_FORM);
  }
}

/**
 * Reads the form.
 * @param maxBytes the largest file taken, bytes.
 * @param tooLarge the 413 text for a file over it (given the file's name).
 * @param notMultipart the 400 text when the request is not multipart/form-data.
 * @param maxFields text fields taken (default 10).
 * @param beforeFile runs with the text fields read so far when the file begins (or at the end when
 *   no file came), before any of the file's bytes are read: a route checks there who may send it,
 *   so a refused client costs no upload (issue 24 §2). What it throws is thrown as is.
 * @throws AppError BAD_REQUEST (`notMultipart`; {@link MALFORMED_FORM} for a malformed or truncated
 *   form; {@link ONE_FILE_ONLY} for a second file), PAYLOAD_TOO_LARGE (`tooLarge(name)`;
 *   {@link TOO_MANY_FIELDS}).
 */
export async function readSingleFileForm(req: FastifyRequest, options: FormOptions): Promise<SingleFileForm> {
  const form: SingleFileForm = { fields: {} };
  await readForm(req, options, form.fields, async (part) => {
    form.file = { name: part.filename, data: await part.toBuffer(), mime: part.mimetype || null };
  });
  return form;
}

/**
 * Reads the form as {@link readSingleFileForm} does, but writes the file to a temporary file as
 * its bytes arrive (issue 26 §1: an upload never sits in memory whole; a 10 MB video costs a
 * socket buffer, not 10 MB). A form that fails (too large, cut short, refused by `beforeFile`)
 * leaves no temporary file behind.
 * @throws as {@link readSingleFileForm}.
 */
export async function readSingleFileUpload(req: FastifyRequest, options: FormOptions): Promise<SpooledForm> {
  let dir: string | undefined;
  const dispose = async () => {
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  const form: SpooledForm = { fields: {}, dispose };
  try {
    await readForm(req, options, form.fields, async (part) => {
      dir = await mkdtemp(join(tmpdir(), 'charla-upload-'));
      const path = join(dir, 'upload');
      await pipeline(part.file, createWriteStream(path));
      // @fastify/multipart ends a file over the limit early and marks it; toBuffer() throws then.
      if (part.file.truncated)
        throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
      form.file = {
        name: part.filename,
        data: { path, size: (await stat(path)).size },
        mime: part.mimetype || null,
      };
    });
  } catch (err) {
    await dispose();
    throw err;
  }
  return form;
}

/** The loop both readers share: text fields into `fields`, the one file to `onFile`. */
async function readForm(
  req: FastifyRequest,
  options: FormOptions,
  fields: Record<string, string>,
  onFile: (part: MultipartFile) => Promise<void>,
): Promise<void> {
  if (!req.isMultipart()) throw new AppError('BAD_REQUEST', options.notMultipart);
  const form = { fields };
  let fileName: string | undefined;
  let checked = false;
  const check = async () => {
    if (checked || !options.beforeFile) return;
    checked = true;
    try {
      await options.beforeFile({ ...form.fields });
    } catch (err) {
      throw new Refused(err);
    }
  };
  try {
    for await (const part of req.parts({
      limits: { fileSize: options.maxBytes, files: 1, fields: options.maxFields ?? 10 },
    })) {
      if (part.type === 'file') {
        fileName = part.filename;
        await check();
        await onFile(part);
      } else form.fields[part.fieldname] = String(part.value ?? '');
    }
    await check();
  } catch (err) {
    if (err instanceof Refused) throw err.reason;
    throw formError(err, fileName, options.tooLarge);
  }
}

/** What `beforeFile` threw, carried past the form's own error mapping unchanged. */
class Refused {
  constructor(readonly reason: unknown) {}
}
