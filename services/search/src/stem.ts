/*
 * English stems in process, to tell which words of a hit's text cannot match a search without
 * asking the database. The SQL engine learns a word's lexemes from PostgreSQL's
 * to_tsvector('english', word) before it marks a snippet; on the 100,000-page wiki that was a
 * statement in most searches (the words of ten texts that begin like a query word), a third of
 * the statements on the one embedded connection.
 *
 * A word of ASCII letters is one token to PostgreSQL's parser, which gives it to the english
 * Snowball dictionary: a stop word has no lexeme, any other word its Snowball "english" stem. The
 * snowball-stemmers package is that algorithm; it differs from the Snowball release PostgreSQL 18
 * ships in one rule (verified on the 130,503 ASCII words of Debian's american-english-large, 13
 * words differ): since Snowball 3, "added", "ebbing", "offings" keep their double consonant after
 * a lone a, e or o ("add", not "ad"). Those words are left to the database, as is every word
 * whose stem here is a wanted lexeme (it may be a stop word) and every other word (digits and
 * letters are another token type; letters outside ASCII are lower-cased by the database's rules).
 */
/** Words the database is asked about whatever the stem here (Snowball 3's kept double consonant). */
const KEPT_DOUBLE = /^[aeo](?:bb|dd|ff|gg|mm|nn|pp|rr|tt)(?:ed|edly|ing|ingly)s?$/;
const ASCII_WORD = /^[A-Za-z]{1,100}$/;
/** Stems computed (words repeat across searches). */
const STEM_CACHE = 100_000;

let stemmer: { stem(word: string): string } | undefined;
let loading: Promise<void> | undefined;
const stems = new Map<string, string>();

/**
 * The stemmer, once loaded: the module (every language's, 860 kB) is read at the first search
 * that asks, not at start; until it is there the database answers.
 */
function loadedStemmer(): { stem(word: string): string } | undefined {
  void loadStemmer();
  return stemmer;
}

/** Loads the stemmer (cannotMatch starts this itself; a test awaits it). */
export function loadStemmer(): Promise<void> {
  return (loading ??= import('snowball-stemmers').then(
    (m) => {
      const newStemmer = m.newStemmer ?? m.default?.newStemmer;
      stemmer = newStemmer?.('english');
    },
    () => undefined,
  ));
}

function stemOf(lower: string, st: { stem(word: string): string }): string {
  let s = stems.get(lower);
  if (s === undefined) {
    s = st.stem(lower);
    if (stems.size >= STEM_CACHE) stems.clear();
    stems.set(lower, s);
  }
  return s;
}

/**
 * True when `word` certainly has none of `lexemes` among its PostgreSQL english lexemes; false
 * when it may (the database then says).
 */
export function cannotMatch(word: string, lexemes: ReadonlySet<string>): boolean {
  if (!ASCII_WORD.test(word)) return false;
  const lower = word.toLowerCase();
  const st = loadedStemmer();
  if (!st || KEPT_DOUBLE.test(lower)) return false;
  return !lexemes.has(stemOf(lower, st));
}
