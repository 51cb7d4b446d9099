/*
 * action=expandtemplates prop=parsetree: the preprocessor's tree as MediaWiki's XML
 * (<root>, <template>, <tplarg>, <part>, <name>, <value>, <ext>). Comments are not kept by this
 * preprocessor, so they do not appear.
 */
import { preprocess, type PNode } from './preprocess.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function nodesXml(nodes: PNode[]): string {
  return nodes
    .map((n) => {
      if (typeof n === 'string') return esc(n);
      if (n.kind === 'heading') return '';
      if (n.kind === 'ext') {
        const close = n.inner === undefined ? '' : `<inner>${esc(n.inner)}</inner><close>&lt;/${n.name}&gt;</close>`;
        return `<ext><name>${esc(n.name)}</name><attr>${esc(n.attrs)}</attr>${close}</ext>`;
      }
      if (n.kind === 'arg') {
        const dflt = n.default ? `<part><name index="1"/><value>${nodesXml(n.default)}</value></part>` : '';
        return `<tplarg><title>${nodesXml(n.name)}</title>${dflt}</tplarg>`;
      }
      let pos = 0;
      const parts = n.parts
        .map((p) => (p.name ? `<part><name>${nodesXml(p.name)}</name>=<value>${nodesXml(p.value)}</value></part>` : `<part><name index="${++pos}"/><value>${nodesXml(p.value)}</value></part>`))
        .join('');
      return `<template${n.lineStart ? ' lineStart="1"' : ''}><title>${nodesXml(n.title)}</title>${parts}</template>`;
    })
    .join('');
}

export function parseTreeXml(text: string): string {
  return `<root>${nodesXml(preprocess(text, { include: false }).nodes)}</root>`;
}
