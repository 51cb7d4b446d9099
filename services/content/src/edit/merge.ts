import { diff3Merge } from 'node-diff3';

/**
 * MediaWiki's wfMerge (GNU `diff3 -a --overlap-only` to detect conflicts, then `diff3 -a -e
 * --merge`) on lines: the changes from `base` to `mine` and from `base` to `yours` are combined
 * when they do not overlap; identical changes on both sides are not a conflict. Like wfMerge,
 * trailing whitespace of each text is trimmed and the result ends with one newline (the save
 * trims it again). Returns undefined when the changes overlap.
 */
export function merge3(base: string, mine: string, yours: string): string | undefined {
  const lines = (text: string) => text.replace(/\s+$/, '').split('\n');
  const blocks = diff3Merge(lines(mine), lines(base), lines(yours), { excludeFalseConflicts: true });
  const out: string[] = [];
  for (const block of blocks) {
    if (block.conflict) return undefined;
    out.push(...(block.ok ?? []));
  }
  return out.map((l) => `${l}\n`).join('');
}
