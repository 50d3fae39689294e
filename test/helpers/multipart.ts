/**
 * Builds a multipart/form-data body with the platform's own FormData encoder (fields first,
 * then one file), for `app.inject`.
 */
export async function multipart(
  fields: Record<string, string>,
  file: { field: string; name: string; data: Uint8Array },
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(file.field, new Blob([file.data]), file.name);
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type')!,
  };
}
