/** A multipart body's fields: text, numbers, and Blobs (a File carries its name) for the file parts. */
export type MultipartFields = Record<string, string | number | boolean | Blob | null | undefined>;

/**
 * openapi-fetch's body serializer for a `multipart/form-data` operation: the typed body as FormData
 * (fetch then sets the boundary). The text fields go first and the files last, so that a server
 * reading the stream (dms-svc's upload) knows the tenant before the bytes arrive; absent fields are
 * left out.
 *
 * @example
 * await client.POST('/api/dms-file/upload', {
 *   body: { crProcessId, file: new File([bytes], 'a.txt', { type: 'text/plain' }) },
 *   bodySerializer: multipartBody,
 * });
 */
export function multipartBody(fields: MultipartFields): FormData {
  const form = new FormData();
  const entries = Object.entries(fields);
  for (const [name, value] of entries) {
    if (value !== undefined && value !== null && !(value instanceof Blob)) form.append(name, String(value));
  }
  for (const [name, value] of entries) {
    if (value instanceof Blob) form.append(name, value);
  }
  return form;
}
