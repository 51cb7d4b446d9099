/*
 * The footer's links (Skin::footerLink): each one's text and target are interface messages a wiki
 * may edit — MediaWiki:Privacy / Privacypage, Aboutsite / Aboutpage, Disclaimers / Disclaimerpage;
 * a target message that is "-" or blank hides its link. Read from the wiki's MediaWiki: pages at
 * most every few seconds per gateway (MediaWiki's message cache), defaults otherwise.
 */
import type { GatewayDeps } from '../context.js';

export interface FooterLink {
  id: string;
  text: string;
  /** The page it links to (a title). */
  page: string;
}

/** [element id, text message, target message] in the footer's order, with English defaults. */
const LINKS: [string, [string, string], [string, string]][] = [
  ['footer-places-privacy', ['Privacy', 'Privacy policy'], ['Privacypage', 'Project:Privacy policy']],
  ['footer-places-about', ['Aboutsite', 'About {{SITENAME}}'], ['Aboutpage', 'Project:About']],
  ['footer-places-disclaimer', ['Disclaimers', 'Disclaimers'], ['Disclaimerpage', 'Project:General disclaimer']],
];

/** How long a read of the messages serves (ms). */
const FRESH_MS = 10_000;
/** How long a page waits for the read (ms). */
const READ_DEADLINE_MS = 500;

interface Cached {
  at: number;
  overrides: Map<string, string>;
  refreshing?: Promise<void>;
}

const cache = new WeakMap<GatewayDeps, Cached>();

/** Reads the MediaWiki: pages of the footer's messages again when the last read is older than FRESH_MS. */
export async function refreshFooterMessages(deps: GatewayDeps, now = Date.now()): Promise<void> {
  const c = cache.get(deps) ?? { at: 0, overrides: new Map<string, string>() };
  cache.set(deps, c);
  if (now - c.at < FRESH_MS) return;
  c.refreshing ??= (async () => {
    const keys = LINKS.flatMap(([, text, page]) => [text[0], page[0]]);
    const read = await Promise.all(
      keys.map((k) =>
        // A short deadline: a slow or absent content service leaves the defaults, not a slow page.
        deps.clients.content.getPage(`MediaWiki:${k}`, true, { deadlineMs: READ_DEADLINE_MS }).then(
          (r) => (r.page && !r.page.missing ? r.latest?.content : undefined),
          () => undefined,
        ),
      ),
    );
    const overrides = new Map<string, string>();
    keys.forEach((k, i) => {
      if (read[i] !== undefined) overrides.set(k, read[i]!);
    });
    c.overrides = overrides;
    c.at = Date.now();
  })().finally(() => {
    c.refreshing = undefined;
  });
  await c.refreshing;
}

/** The footer's links as the messages now say (the last read, or the defaults). */
export function footerLinks(deps: GatewayDeps): FooterLink[] {
  const overrides = cache.get(deps)?.overrides;
  const message = ([key, fallback]: [string, string]) =>
    (overrides?.get(key) ?? fallback)
      .replaceAll('{{SITENAME}}', deps.config.sitename)
      // {{ns:project}}: "Project" is the project namespace's alias everywhere.
      .replaceAll(/\{\{ns:project\}\}/gi, 'Project')
      .trim();
  return LINKS.flatMap(([id, text, page]) => {
    const target = message(page);
    return target === '' || target === '-' ? [] : [{ id, text: message(text), page: target }];
  });
}
