/*
 * Content models and serialization formats of MediaWiki 1.39 core (ContentHandlerFactory::
 * getContentModels / getAllContentFormats, ContentHandler::getSupportedFormats): the values of
 * every contentmodel/contentformat parameter, and which format each model can be read in.
 */

export const CONTENT_MODEL_VALUES = ['css', 'javascript', 'json', 'text', 'unknown', 'wikitext'] as const;

export const CONTENT_FORMAT_VALUES = [
  'application/json',
  'application/octet-stream',
  'application/unknown',
  'application/x-binary',
  'text/css',
  'text/javascript',
  'text/plain',
  'text/unknown',
  'text/x-wiki',
  'unknown/unknown',
] as const;

/** The formats of each model; `unknown` is FallbackContentHandler's (content of an uninstalled model). */
export const FORMATS_OF: Readonly<Record<string, readonly string[]>> = {
  wikitext: ['text/x-wiki'],
  javascript: ['text/javascript'],
  css: ['text/css'],
  json: ['application/json'],
  text: ['text/plain'],
  unknown: ['application/octet-stream', 'application/unknown', 'application/x-binary', 'text/unknown', 'unknown/unknown'],
};

export function supportsFormat(model: string, format: string): boolean {
  return (FORMATS_OF[model] ?? []).includes(format);
}
