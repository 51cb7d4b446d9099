-- The refreshLinks trigger (005) looks for an unclaimed job of the same page on every save; with
-- many jobs waiting — a bulk import queues one per page — that lookup scanned them all (60 ms
-- per page at 30,000 waiting jobs). Found by its title now.
CREATE INDEX job_unclaimed_title ON ${schema}.job (job_cmd, job_namespace, job_title) WHERE job_token = '';
