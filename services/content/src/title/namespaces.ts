/*
 * MediaWiki's default namespaces (includes/Defines.php, MessagesEn.php, MainConfigSchema.php).
 * Namespaces are configuration, not data: the table is built from the site name at start.
 */

export const NS_MEDIA = -2;
export const NS_SPECIAL = -1;
export const NS_MAIN = 0;
export const NS_TALK = 1;
export const NS_USER = 2;
export const NS_USER_TALK = 3;
export const NS_PROJECT = 4;
export const NS_FILE = 6;
export const NS_MEDIAWIKI = 8;
export const NS_CATEGORY = 14;

export interface NamespaceDef {
  id: number;
  /** Local name with spaces; "" for the main namespace. */
  name: string;
  /** Canonical (English) name with spaces; "" for the main namespace. */
  canonical: string;
  /** Whether the first letter of titles is uppercased ("first-letter" in siteinfo). */
  capitalized: boolean;
  content: boolean;
  subpages: boolean;
  nonincludable: boolean;
  /** $wgNamespaceContentModels entry; "" when not configured (the page's model then decides). */
  defaultContentModel: string;
  /** $wgNamespaceProtection right needed to edit, e.g. "editinterface" for MediaWiki:. */
  protection: string;
}

export interface NamespaceAliasDef {
  id: number;
  /** Alias with spaces, as siteinfo lists it. */
  alias: string;
}

/** ns id, canonical name, subpages ($wgNamespacesWithSubpages) */
const DEFAULTS: [number, string, boolean][] = [
  [-2, 'Media', false],
  [-1, 'Special', false],
  [0, '', false],
  [1, 'Talk', true],
  [2, 'User', true],
  [3, 'User talk', true],
  [4, 'Project', true],
  [5, 'Project talk', true],
  [6, 'File', false],
  [7, 'File talk', true],
  [8, 'MediaWiki', true],
  [9, 'MediaWiki talk', true],
  [10, 'Template', true],
  [11, 'Template talk', true],
  [12, 'Help', true],
  [13, 'Help talk', true],
  [14, 'Category', false],
  [15, 'Category talk', true],
];

/** MessagesEn.php $namespaceAliases: kept for titles written before MediaWiki 1.14. */
const ALIASES: NamespaceAliasDef[] = [
  { id: 6, alias: 'Image' },
  { id: 7, alias: 'Image talk' },
];

const toKey = (name: string) => name.replaceAll(' ', '_').toLowerCase();

export class NamespaceTable {
  readonly list: readonly NamespaceDef[];
  readonly aliases: readonly NamespaceAliasDef[] = ALIASES;
  private readonly byId = new Map<number, NamespaceDef>();
  /** Lowercased DB-key form of local names, canonical names and aliases -> id (Language::getNsIndex). */
  private readonly byKey = new Map<string, number>();

  /** @param siteName $wgSitename; the project namespace is named after it ($wgMetaNamespace). */
  constructor(siteName: string) {
    const meta = siteName.replaceAll('_', ' ').trim();
    this.list = DEFAULTS.map(([id, canonical, subpages]) => ({
      id,
      name: id === 4 ? meta : id === 5 ? `${meta} talk` : canonical,
      canonical,
      capitalized: true,
      content: id === NS_MAIN,
      subpages,
      nonincludable: false,
      defaultContentModel: '',
      protection: id === NS_MEDIAWIKI ? 'editinterface' : '',
    }));
    for (const ns of this.list) {
      this.byId.set(ns.id, ns);
      if (ns.id === NS_MAIN) continue;
      this.byKey.set(toKey(ns.canonical), ns.id);
      this.byKey.set(toKey(ns.name), ns.id);
    }
    for (const a of ALIASES) this.byKey.set(toKey(a.alias), a.id);
  }

  get(id: number): NamespaceDef | undefined {
    return this.byId.get(id);
  }

  /** The namespace a title prefix names (case-insensitive, spaces or underscores), if any. */
  indexOf(prefix: string): number | undefined {
    return this.byKey.get(toKey(prefix));
  }

  isContent(id: number): boolean {
    return this.byId.get(id)?.content ?? false;
  }

  isCapitalized(id: number): boolean {
    return this.byId.get(id)?.capitalized ?? true;
  }
}
