-- posting_score without a subquery per call (issue 15): the indexer computes it for every word of a
-- page it indexes, and the aggregate over unnest() cost a fifth of indexing a long page on the
-- embedded database. The same weights (title A 1.0, body B 0.4, C 0.2, D 0.1), the same sum in
-- numeric cast to real: every stored score stays what it was.
CREATE OR REPLACE FUNCTION ${schema}.posting_score(weights text[]) RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (cardinality(array_positions(weights, 'A')) * 1.0 + cardinality(array_positions(weights, 'B')) * 0.4
        + cardinality(array_positions(weights, 'C')) * 0.2 + cardinality(array_positions(weights, 'D')) * 0.1)::real;
