<?php
// Reads JSON lines {"from": ..., "to": ...} and prints, for each, wikidiff2's inline JSON diff and
// table rows as MediaWiki 1.39 calls them (context 2). Used by wikidiff2.test.ts.
while (($line = fgets(STDIN)) !== false) {
	$pair = json_decode($line, true);
	echo json_encode([
		'json' => wikidiff2_inline_json_diff($pair['from'], $pair['to'], 2),
		'table' => wikidiff2_do_diff($pair['from'], $pair['to'], 2),
	], JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
}
