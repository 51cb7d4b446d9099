-- Run once by the postgres image on an empty volume (/docker-entrypoint-initdb.d), as POSTGRES_USER.
-- One database per service, as in production: each service owns its data and migrates it at start
-- (kit creates the service's schema inside its database: auth.*, content.*, search.*).
CREATE DATABASE auth;
CREATE DATABASE content;
CREATE DATABASE search;
