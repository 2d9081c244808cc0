import { HttpError } from 'react-admin';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The API's stable `errorCode` of a failed panelFetch, if it sent one. */
export function errorCodeOf(error: unknown): string | undefined {
  if (!(error instanceof HttpError)) return undefined;
  const body = error.body as { errorCode?: unknown } | undefined;
  return typeof body?.errorCode === 'string' ? body.errorCode : undefined;
}

/**
 * What an operator reads when an API call fails: the sentence for its `errorCode` in the UI's
 * language (tg.errors.*), never the API's English `message`. A code without a sentence and a
 * non-API failure get a generic sentence with the HTTP status.
 */
export function errorText(translate: Translate, error: unknown): string {
  const code = errorCodeOf(error);
  if (code) {
    const text = translate(`tg.errors.${code}`, { _: '' });
    if (text) return text;
  }
  if (error instanceof HttpError) return translate('tg.errors.unknown', { status: error.status });
  if (error instanceof TypeError) return translate('tg.errors.network');
  return translate('tg.errors.unknown', { status: '—' });
}
