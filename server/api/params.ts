/** Reads a request's parameters: the query for GET, form data or JSON for POST (architecture §4). */
import { ApiError } from '#common/errors';
import { invalidParameter } from '#common/parameter-errors';

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

/**
 * What readParams reads of a request: its method, its content type and its body, once, as text or
 * as form fields. A web Request is one (webParamsRequest); so is Node's own request under the
 * server (web/request-body.ts), which spares building the web Request and its stream.
 */
export interface ParamsRequest {
  readonly method: string;
  contentType(): string | undefined;
  /** The body decoded as UTF-8 without its byte order mark, as Request.text() decodes it. */
  text(): Promise<string>;
  /** The body's fields as Request.formData() parses them (urlencoded or multipart). */
  formData(): Promise<FormData | URLSearchParams>;
}

export function webParamsRequest(request: Request): ParamsRequest {
  return {
    method: request.method,
    // Read when a body is (a GET has none): asking built the request's web Headers on every GET (issue 12).
    // A function, not a literal's getter (invoke.ts says why).
    contentType: () => request.headers.get('content-type') ?? undefined,
    text: () => request.text(),
    formData: () => request.formData(),
  };
}

/** What readParams reads of a GET or HEAD: its method; such a request has no body to read. */
export function bodilessRequest(method: string): ParamsRequest {
  return { method, contentType: () => undefined, text: async () => '', formData: async () => new URLSearchParams() };
}

export async function readParams(request: ParamsRequest, url: URL): Promise<RawParams> {
  const query = formToObject(url.searchParams);
  delete query.v;
  delete query.locale;
  delete query.nonstrict;
  if (request.method === 'GET' || request.method === 'HEAD') return query;
  const type = (request.contentType() ?? '').toLowerCase();
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

/**
 * NUL, or half of a UTF-16 surrogate pair without its other half: text no database column can
 * hold (PostgreSQL refuses NUL with an error that carries the SQL), so no method may receive it.
 */
// eslint-disable-next-line no-control-regex -- NUL is the character looked for
const HOSTILE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a text holds NUL or a lone surrogate. */
export function hasHostileText(value: string): boolean {
  return HOSTILE_TEXT.test(value);
}

/**
 * Refuses, for every method at once, parameters whose text (values, and keys of objects, at any
 * depth) holds NUL or a lone surrogate: InvalidParameterException naming the field, as a dotted
 * path like the schema errors (issue 11, reproducer 5).
 */
export function rejectHostileText(params: RawParams): void {
  const field = hostileTextField(params);
  if (field !== undefined) throw invalidParameter(field);
}

/**
 * The dotted path of the first hostile text in the parameters, or undefined when they have none.
 * Walked with a list rather than recursion: a JSON body can nest deeper than the call stack.
 */
function hostileTextField(params: RawParams): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value: params, path: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (HOSTILE_TEXT.test(value)) return path;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, item] of Object.entries(value).reverse()) {
      const itemPath = path ? `${path}.${key}` : key;
      // A hostile key is named by its path, the bad characters shown as U+FFFD.
      if (HOSTILE_TEXT.test(key)) return itemPath.replace(new RegExp(HOSTILE_TEXT.source, 'g'), '\uFFFD');
      pending.push({ value: item, path: itemPath });
    }
  }
  return undefined;
}
