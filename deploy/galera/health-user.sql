-- The user HAProxy logs in as to check a node (option mysql-check): no password, no privilege but
-- to connect, so a check is a clean login and QUIT rather than an aborted connection (which MariaDB
-- counts against the proxy's address until it blocks it).
CREATE USER IF NOT EXISTS 'haproxy'@'%';
