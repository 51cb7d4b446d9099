/* wiki.content.v1.RevisionTextService: sections of wikitext (rvsection), by the edit code's section rules. */
import { invalidArgument } from '@quire/kit';
import type { ExtractSectionsRequest, ExtractSectionsResponse } from '@quire/proto/wiki/content/v1/archive';
import { getSection } from '../edit/sections.js';

export function revisionTextHandlers() {
  return {
    async extractSections(req: ExtractSectionsRequest): Promise<ExtractSectionsResponse> {
      if (!/^\d+$/.test(req.section)) throw invalidArgument('invalidsection', 'The section parameter must be a valid section ID or "new".');
      return {
        sections: req.texts.map((text) => {
          const found = getSection(text, req.section);
          return found === undefined ? { found: false, text: '' } : { found: true, text: found };
        }),
      };
    },
  };
}
