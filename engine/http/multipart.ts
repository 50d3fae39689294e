/**
 * Reading a multipart/form-data request that carries at most one file (an upload, a recording):
 * its text fields and the file's bytes, name and type, with the size limit turned into the
 * product's 413 instead of @fastify/multipart's generic error. One reader for every such route.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** What a single-file form carried. */
export interface SingleFileForm {
  fields: Record<string, string>;
  /** The file, when one came. */
  file?: { name: string; data: Buffer; mime: string | null };
}

/**
 * Reads the form.
 * @param maxBytes the largest file taken, bytes.
 * @param tooLarge the 413 text for a file over it (given the file's name).
 * @param notMultipart the 400 text when the request is not multipart/form-data.
 * @throws AppError BAD_REQUEST (`notMultipart`), PAYLOAD_TOO_LARGE (`tooLarge(name)`).
 */
export async function readSingleFileForm(
  req: FastifyRequest,
  options: { maxBytes: number; tooLarge: (name: string) => string; notMultipart: string; maxFields?: number },
): Promise<SingleFileForm> {
  if (!req.isMultipart()) throw new AppError('BAD_REQUEST', options.notMultipart);
  const form: SingleFileForm = { fields: {} };
  for await (const part of req.parts({
    limits: { fileSize: options.maxBytes, files: 1, fields: options.maxFields ?? 10 },
  })) {
    if (part.type === 'file') {
      try {
        form.file = { name: part.filename, data: await part.toBuffer(), mime: part.mimetype || null };
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('PAYLOAD_TOO_LARGE', options.tooLarge(part.filename));
        throw err;
      }
    } else form.fields[part.fieldname] = String(part.value ?? '');
  }
  return form;
}
