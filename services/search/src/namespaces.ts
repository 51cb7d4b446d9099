import { unary } from '@quire/kit';
import type { SiteServiceClient } from '@quire/proto/wiki/content/site/v1/site';
import type { NamespaceLookup } from './query/parser.js';

/**
 * The wiki's namespace names and aliases, read from the content service once (they are
 * configuration), for namespace prefixes in queries ("Talk:foo", "Help:Fo" in completion).
 */
export class NamespaceNames {
  private byName: Map<string, number> | undefined;

  constructor(private readonly content: SiteServiceClient) {}

  async lookup(): Promise<NamespaceLookup> {
    if (!this.byName) {
      const r = await unary(this.content, this.content.listNamespaces, {}, { deadlineMs: 5000 });
      const names = new Map<string, number>();
      const add = (name: string, id: number) => {
        if (name !== '') names.set(name.toLowerCase().replace(/_/g, ' '), id);
      };
      for (const ns of r.namespaces) {
        add(ns.name, ns.id);
        add(ns.canonical, ns.id);
      }
      for (const a of r.aliases) add(a.alias, a.id);
      this.byName = names;
    }
    const byName = this.byName;
    return (name) => byName.get(name);
  }
}
