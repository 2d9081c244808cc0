type Translate = (key: string, options?: Record<string, unknown>) => string;

let current: Translate | null = null;

/**
 * The UI's translate function for code outside React (the API client). Set by i18n-provider.ts;
 * a module of its own so the API client does not import the message catalogues (an import cycle).
 */
export function setTranslator(translate: Translate): void {
  current = translate;
}

export function translateOutsideReact(key: string, options?: Record<string, unknown>): string | null {
  return current ? current(key, options) : null;
}
