/** Reads a request's parameters: the query for GET, form data or JSON for POST (architecture §4). */
import { ApiError } from '#common/errors';

export type RawParams = Record<string, unknown>;

function formToObject(form: FormData | URLSearchParams): RawParams {
  const out: RawParams = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== 'string') continue; // files are not product API parameters
    // `keys[]=a&keys[]=b` and repeated keys both become arrays.
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const existing = out[name];
    if (key.endsWith('[]') || existing !== undefined) {
      out[name] = Array.isArray(existing) ? [...existing, value] : existing === undefined ? [value] : [existing, value];
    } else out[name] = value;
  }
  return out;
}

export async function readParams(request: Request, url: URL): Promise<RawParams> {
  const query = formToObject(url.searchParams);
  delete query.v;
  delete query.locale;
  delete query.nonstrict;
  if (request.method === 'GET' || request.method === 'HEAD') return query;
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  try {
    if (type.includes('application/json')) {
      const text = await request.text();
      if (!text.trim()) return query;
      const body: unknown = JSON.parse(text);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ApiError('InvalidRequestException', 'The JSON body must be an object');
      }
      return { ...query, ...(body as RawParams) };
    }
    if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      return { ...query, ...formToObject(await request.formData()) };
    }
    const text = await request.text();
    if (!text.trim()) return query;
    throw new ApiError('InvalidRequestException', 'Send the body as form data or JSON');
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('InvalidRequestException', 'The request body cannot be read');
  }
}
