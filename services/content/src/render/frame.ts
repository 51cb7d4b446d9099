/*
 * What template expansion and the parser functions share. Parser functions call back into the
 * expansion (as MediaWiki's CoreParserFunctions call the Parser), so `functions.ts` sees the
 * expander through this interface, which `Expander` (expand.ts) implements: the two modules do
 * not import each other.
 */
import type { TitleCodec } from '../title/codec.js';
import type { PNode, Part } from './preprocess.js';
import type { FragmentMode } from './sanitizer.js';
import type { RenderRequest, TitleRef } from './types.js';

export interface Frame {
  title: TitleRef;
  /** Parameters by name ("1", "2"… for positional ones), unexpanded, with the frame to expand them in. */
  args: Map<string, { nodes: PNode[]; named: boolean }>;
  parent?: Frame;
  depth: number;
  /** Prefixed keys of the templates being expanded on the way here (loop detection). */
  chain: Set<string>;
  expanded: Map<string, string>;
}

/** The expander as parser functions and magic words use it. */
export interface ExpansionHost {
  readonly codec: TitleCodec;
  readonly req: RenderRequest;
  readonly site: { name: string; server: string; now: Date; fragmentMode?: FragmentMode };
  readonly properties: Record<string, string>;
  /** Expensive parser function calls so far ($wgExpensiveParserFunctionLimit). */
  expensive: number;
  /** The output depends on the time of rendering. */
  volatile: boolean;
  prefixed(t: TitleRef): string;
  parseTitle(text: string, defaultNs?: number): TitleRef | undefined;
  exists(t: TitleRef): Promise<boolean>;
  expand(nodes: PNode[], frame: Frame, headingOwner?: string): Promise<string>;
  expandPart(part: Part | undefined, frame: Frame, trim?: boolean): Promise<string>;
  expandExt(name: string, rawAttrs: string, inner: string | undefined, src: string, frame: Frame): Promise<string>;
}
