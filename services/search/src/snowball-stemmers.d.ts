// snowball-stemmers ships no types: the part stem.ts uses. A CommonJS module marked __esModule:
// node and tsx give its named exports, an esbuild bundle only its default (module.exports).
declare module 'snowball-stemmers' {
  interface Snowball {
    newStemmer(language: string): { stem(word: string): string };
  }
  export const newStemmer: Snowball['newStemmer'] | undefined;
  const snowball: Snowball | undefined;
  export default snowball;
}
